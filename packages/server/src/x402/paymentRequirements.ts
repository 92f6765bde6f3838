import { eip3009Abi } from '@paysession/protocol'
import type { PaymentRequirements } from '@x402/core/types'
import {
  type Address,
  createPublicClient,
  getAddress,
  http,
  isAddress,
  isAddressEqual,
  type PublicClient,
} from 'viem'
import type { PaymentSession } from '../client/types.js'
import { owed } from '../relay/chainChecks.js'
import { relayError } from '../relay/errors.js'
import type { RelayNetwork } from '../relay/options.js'

/** A token's address, its EIP-712 domain (x402's `extra`) and its decimals. */
export type X402Token = {
  symbol: string
  address: Address
  name: string
  version: string
  decimals: number
}

/** A network and token of the merchant's that a payment names. */
export type X402Candidate = {
  network: string
  chainId: number
  symbol: string
  token: () => Promise<X402Token>
}

/** What the handler asks for one session: x402's requirements, and the token each is in. */
export type SessionRequirements = {
  network: string
  chainId: number
  accepts: { requirements: PaymentRequirements; token: X402Token }[]
}

/** The CAIP-2 name of an EVM chain, as x402 names networks. */
export const caip2 = (chainId: number) => `eip155:${chainId}` as const

/**
 * The merchant's networks as x402 sees them: per network, its public client and its tokens'
 * domains, read from the chain once when only an address is configured.
 */
export function createTokenBook(networks: Record<string, RelayNetwork>) {
  const clients = new Map<string, PublicClient>()
  const tokens = new Map<string, Promise<X402Token>>()

  function clientOf(name: string): PublicClient {
    let client = clients.get(name)
    if (!client) {
      client = createPublicClient({ transport: http(networks[name]!.rpcUrl) })
      clients.set(name, client)
    }
    return client
  }

  function tokenOf(name: string, symbol: string): Promise<X402Token> | undefined {
    const entry = Object.entries(networks[name]?.tokens ?? {}).find(
      ([s]) => s.toUpperCase() === symbol.toUpperCase(),
    )
    if (!entry) return undefined
    const [key, configured] = entry
    const id = `${name}:${key}`
    let token = tokens.get(id)
    if (!token) {
      if (typeof configured === 'object') {
        token = Promise.resolve({
          ...configured,
          symbol: key,
          address: getAddress(configured.address),
        })
      } else {
        const address = getAddress(configured)
        const read = <F extends 'name' | 'version' | 'decimals'>(functionName: F) =>
          clientOf(name).readContract({ address, abi: eip3009Abi, functionName })
        token = Promise.all([read('name'), read('version'), read('decimals')]).then(
          ([tokenName, version, decimals]) => ({
            symbol: key,
            address,
            name: tokenName,
            version,
            decimals,
          }),
        )
        // A failed read is tried again by the next request.
        token.catch(() => tokens.delete(id))
      }
      tokens.set(id, token)
    }
    return token
  }

  /**
   * The merchant's tokens a payment may be in, without any call: by x402's `network` and `asset`,
   * or by symbol on every network (the checkout's gasless request names only the symbol).
   */
  function candidatesFor(by: { network: string; asset: string } | { symbol: string }) {
    const found: X402Candidate[] = []
    for (const [name, config] of Object.entries(networks))
      for (const [symbol, configured] of Object.entries(config.tokens)) {
        const address = typeof configured === 'object' ? configured.address : configured
        const matches =
          'symbol' in by
            ? symbol.toUpperCase() === by.symbol.toUpperCase()
            : caip2(config.chainId) === by.network &&
              isAddress(by.asset, { strict: false }) &&
              isAddressEqual(address, by.asset)
        if (matches)
          found.push({
            network: name,
            chainId: config.chainId,
            symbol,
            token: () => tokenOf(name, symbol)!,
          })
      }
    return found
  }

  /**
   * x402's `exact` requirements for what `session` still owes: one per accepted token the
   * merchant relays on the session's network, paid to its one-time wallet. Refuses a session
   * that owes nothing or whose network or tokens the merchant does not relay.
   */
  async function requirementsFor(
    session: PaymentSession,
    maxTimeoutSeconds: number,
  ): Promise<SessionRequirements> {
    const payable = session.status === 'CREATED' || session.status === 'PENDING'
    if (!payable) throw relayError('SESSION_NOT_PAYABLE', { details: session.status })
    const payTo = session.oneTimeWalletAddress
    if (!payTo || !isAddress(payTo, { strict: false }))
      throw relayError('SESSION_NOT_PAYABLE', { details: 'the session has no one-time wallet' })
    const network = session.network?.toUpperCase() ?? ''
    const config = networks[network]
    const symbols = session.acceptedTokens?.length ? session.acceptedTokens : [session.tokenSymbol]
    const accepts: SessionRequirements['accepts'] = []
    for (const symbol of symbols) {
      const pending = config && symbol ? tokenOf(network, symbol) : undefined
      if (!pending) continue
      let token: X402Token
      try {
        token = await pending
      } catch (error) {
        throw relayError('RELAY_UNAVAILABLE', { details: 'token domain', cause: error })
      }
      const amount = owed(session, token.symbol, token.decimals)
      if (amount === 0n) throw relayError('SESSION_NOT_PAYABLE', { details: 'nothing owed' })
      accepts.push({
        token,
        requirements: {
          scheme: 'exact',
          network: caip2(config!.chainId),
          asset: token.address,
          amount: amount.toString(),
          payTo: getAddress(payTo),
          maxTimeoutSeconds,
          extra: { name: token.name, version: token.version },
        },
      })
    }
    if (accepts.length === 0)
      throw relayError('UNSUPPORTED_TOKEN', { details: `${symbols.join(', ')} on ${network}` })
    return { network, chainId: config!.chainId, accepts }
  }

  return { requirementsFor, candidatesFor, clientOf }
}
