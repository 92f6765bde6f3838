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

/** The EIP-712 domain's name and version an EIP-3009 authorization is signed for. */
export type TokenDomain = { name: string; version: string }

/** What a token contract says of itself: its decimals, and for EIP-3009 its EIP-712 domain. */
export type TokenFacts = { decimals: number | undefined; domain: TokenDomain | undefined }

// A contract's decimals and domain do not change while a page lives: read once per chain and
// token for every checkout on the page, so the check the offer starts is done when Pay is
// pressed. A read that failed (an RPC that did not answer) is read again the next time.
const cache = new Map<string, Promise<TokenFacts>>()

/**
 * The token on chain as the registry says it is, before any prompt: its `decimals()` (a wrong
 * one would make the customer send 10^k times the amount). `INVALID_CONFIG` otherwise, with a
 * sentence for the merchant; an RPC that does not answer rejects with viem's error. One round
 * trip at most, in parallel with the balance reads.
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
    read = readFacts(client, token)
    cache.set(key, read)
    read.catch(() => cache.delete(key))
  }
  const facts = await read
  if (facts.decimals !== token.decimals)
    throw invalid(
      network,
      token,
      facts.decimals === undefined
        ? 'has no decimals(): no ERC-20 token at that address'
        : `has ${facts.decimals} decimals, the registry says ${token.decimals}: every amount would be off by 10^${Math.abs(facts.decimals - token.decimals)}`,
    )
  return facts
}

/**
 * The domain to sign an EIP-3009 authorization for: the token's own, which must match the
 * registry's `eip712` when it gives one; `INVALID_CONFIG` otherwise.
 */
export function checkTokenDomain(
  network: NetworkInfo,
  token: StablecoinInfo,
  facts: TokenFacts,
): TokenDomain {
  const { domain } = facts
  const pinned = token.eip712
  if (!domain)
    throw invalid(network, token, 'has no EIP-712 domain (eip712Domain(), name(), version())')
  if (pinned && (pinned.name !== domain.name || pinned.version !== domain.version))
    throw invalid(
      network,
      token,
      `signs for the EIP-712 domain "${domain.name}" version "${domain.version}", the registry says "${pinned.name}" version "${pinned.version}"`,
    )
  return domain
}

async function readFacts(client: Client, token: StablecoinInfo): Promise<TokenFacts> {
  const read = <F extends 'decimals' | 'name' | 'version' | 'eip712Domain'>(functionName: F) =>
    readContract(client, { address: token.address, abi: tokenMetadataAbi, functionName }).catch(
      noAnswer,
    )
  const eip3009 = !!token.eip3009
  // EIP-5267 where the token has it, else name() and version() (FiatToken): all at once.
  const [decimals, eip5267, name, version] = await Promise.all([
    read('decimals'),
    eip3009 ? read('eip712Domain') : undefined,
    eip3009 ? read('name') : undefined,
    eip3009 ? read('version') : undefined,
  ])
  const domain = eip5267
    ? { name: eip5267[1], version: eip5267[2] }
    : name !== undefined && version !== undefined
      ? { name, version }
      : undefined
  return { decimals, domain }
}

// A function the contract does not have is an answer (undefined); an RPC failure is not.
function noAnswer(error: unknown): undefined {
  const missing =
    error instanceof BaseError &&
    error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
    )
  if (missing) return undefined
  throw error
}

const invalid = (network: NetworkInfo, token: StablecoinInfo, what: string) =>
  new PaySessionError('INVALID_CONFIG', {
    details: `${token.symbol} on ${network.name}: the token at ${token.address} ${what}. Fix the token in the page's tokens, networks or registry (or the service's network).`,
  })
