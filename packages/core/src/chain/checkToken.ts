import { tokenMetadataAbi } from '@paysession/protocol'
import {
  BaseError,
  type Client,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
} from 'viem'
import { readContract } from 'viem/actions'
import { PaySessionError } from '../errors/base.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'

/** What a token contract says of itself: its decimals, and for EIP-3009 its EIP-712 domain. */
export type TokenFacts = {
  decimals: number | undefined
  domain: { name: string; version: string } | undefined
}

// A contract's decimals and domain do not change while a page lives: read once per chain and
// token for every checkout on the page, so the check the offer starts is done when Pay is
// pressed. A read that failed (an RPC that did not answer) is read again the next time.
const cache = new Map<string, Promise<TokenFacts>>()

/**
 * The token on chain as the registry says it is, before any prompt: its `decimals()` (a wrong
 * one would make the customer send 10^k times the amount), else `INVALID_CONFIG`; an RPC that
 * does not answer rejects with viem's error. One round trip, in parallel with the balance reads.
 * The EIP-712 domain is read with it for an EIP-3009 token (EIP-5267's `eip712Domain()` where
 * the token has it, else `name()` and `version()`); the gasless path compares it.
 * @example const facts = await checkToken(client, network, token)
 */
export async function checkToken(
  client: Client,
  network: NetworkInfo,
  token: StablecoinInfo,
): Promise<TokenFacts> {
  const key = `${network.chainId}:${token.address}:${!!token.eip3009}`
  let read = cache.get(key)
  if (!read) {
    const call = (functionName: 'decimals' | 'eip712Domain' | 'name' | 'version') =>
      readContract(client, { address: token.address, abi: tokenMetadataAbi, functionName }).catch(
        noAnswer,
      )
    read = Promise.all(
      token.eip3009
        ? [call('decimals'), call('eip712Domain'), call('name'), call('version')]
        : [call('decimals')],
    ).then(([decimals, eip5267, name, version]) => {
      // eip712Domain() answers (fields, name, version, …); without it, name() and version().
      const [, n = name, v = version] = (eip5267 ?? []) as unknown[]
      return {
        decimals: decimals as number | undefined,
        domain:
          typeof n === 'string' && typeof v === 'string' ? { name: n, version: v } : undefined,
      }
    })
    cache.set(key, read)
    read.catch(() => cache.delete(key))
  }
  const facts = await read
  if (facts.decimals !== token.decimals)
    throw tokenError(network, token, `decimals() is ${facts.decimals}`)
  return facts
}

/** `INVALID_CONFIG`: the token on chain is not what the registry says. */
export const tokenError = (network: NetworkInfo, token: StablecoinInfo, what: string) =>
  new PaySessionError('INVALID_CONFIG', {
    details: `${token.symbol} on ${network.name}: ${what}, not as in the registry`,
  })

// A function the contract does not have is an answer (undefined); an RPC failure is not.
function noAnswer(error: unknown): undefined {
  if (
    error instanceof BaseError &&
    error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
    )
  )
    return undefined
  throw error
}
