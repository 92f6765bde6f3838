import { checkUrl, PaySessionError, sameName } from '@paysession/protocol'
import { getAddress, isAddress } from 'viem'
import { localNetwork } from './localNetwork.js'
import { pinnedNetworks } from './pinnedNetworks.js'
import type { NetworkInfo, Registry, StablecoinInfo } from './types.js'

export type CreateRegistryParameters = {
  /** Start from these networks instead of the pinned ones plus LOCAL. */
  networks?: readonly NetworkInfo[]
  /** RPC URL of the LOCAL network (the sandbox's anvil). */
  localRpcUrl?: string
}

/**
 * The pinned networks and stablecoins plus the sandbox's LOCAL network. Given networks are
 * checked as the pinned ones: token addresses and decimals, and every URL (RPCs, which a wallet
 * keeps, and the explorer, shown as links) by the one URL rule (protocol's `checkUrl`).
 * @example const registry = createRegistry({ localRpcUrl: sandbox.rpcUrl })
 */
export function createRegistry(parameters: CreateRegistryParameters = {}): Registry {
  const networks = parameters.networks ?? [...pinnedNetworks, localNetwork(parameters.localRpcUrl)]
  return {
    networks: networks.map((network) => {
      for (const url of rpcs(network)) checkUrl(url, `${network.name} rpcUrls`)
      if (network.explorerUrl !== undefined)
        checkUrl(network.explorerUrl, `${network.name} explorerUrl`)
      return {
        ...network,
        displayName: network.displayName ?? network.chain.name,
        tokens: network.tokens.map((token) => checkToken(network, token)),
      }
    }),
  }
}

/**
 * What a registry changes of the pinned one (the pinned networks, and LOCAL on `localRpcUrl`): a
 * network's chain id, RPCs or explorer, a token's address, decimals or EIP-3009 settings. Added
 * networks and tokens, and left-out ones, change nothing pinned.
 * @example pinnedChanges(extendRegistry(registry, { tokens })) // ['USDC on BASE']
 */
export function pinnedChanges(registry: Registry, localRpcUrl?: string): string[] {
  const changes: string[] = []
  for (const pinned of createRegistry({ localRpcUrl }).networks) {
    const network = registry.networks.find((n) => sameName(n.name, pinned.name))
    if (!network) continue
    const at = (n: NetworkInfo) => [n.chainId, n.explorerUrl, ...rpcs(n)].join()
    if (at(network) !== at(pinned)) changes.push(pinned.name)
    for (const pin of pinned.tokens) {
      const token = network.tokens.find((t) => sameName(t.symbol, pin.symbol))
      const is = (t: StablecoinInfo) =>
        [t.address, t.decimals, !!t.eip3009, t.eip712?.name, t.eip712?.version].join()
      if (token && is(token) !== is(pin)) changes.push(`${pin.symbol} on ${pinned.name}`)
    }
  }
  return changes
}

// The RPCs a wallet is asked to add with the network (wallet_addEthereumChain).
const rpcs = (network: NetworkInfo): readonly string[] =>
  network.chain?.rpcUrls?.default?.http ?? []

/**
 * Adds networks (a network with a known name replaces it) and tokens (per network name).
 * @example extendRegistry(registry, { tokens: { OPTIMISM: [{ symbol: 'USDT', address, decimals: 6 }] } })
 */
export function extendRegistry(
  registry: Registry,
  extension: {
    networks?: readonly NetworkInfo[]
    tokens?: Record<string, readonly StablecoinInfo[]>
  },
): Registry {
  // Names and symbols compare as the service's do (case-insensitively): `usdc` replaces USDC.
  const key = (name: string) => name.toUpperCase()
  const byName = new Map(registry.networks.map((network) => [key(network.name), network]))
  for (const network of extension.networks ?? []) byName.set(key(network.name), network)
  for (const [name, tokens] of Object.entries(extension.tokens ?? {})) {
    const network = byName.get(key(name))
    if (!network) throw new PaySessionError('UNSUPPORTED_NETWORK', { details: name })
    const symbols = new Set(tokens.map((token) => key(token.symbol)))
    byName.set(key(name), {
      ...network,
      tokens: [...network.tokens.filter((token) => !symbols.has(key(token.symbol))), ...tokens],
    })
  }
  return createRegistry({ networks: [...byName.values()] })
}

/**
 * Keeps only the given networks and/or token symbols.
 * @example restrictRegistry(registry, { networks: ['BASE'], tokens: ['USDC'] })
 */
export function restrictRegistry(
  registry: Registry,
  only: { networks?: readonly string[]; tokens?: readonly string[] },
): Registry {
  return {
    networks: registry.networks
      .filter((network) => !only.networks || only.networks.some((n) => sameName(n, network.name)))
      .map((network) => ({
        ...network,
        tokens: network.tokens.filter(
          (token) => !only.tokens || only.tokens.some((s) => sameName(s, token.symbol)),
        ),
      })),
  }
}

/** The network with this service name, or `UNSUPPORTED_NETWORK`. */
export function getNetwork(registry: Registry, name: string | undefined): NetworkInfo {
  const network = registry.networks.find((n) => sameName(n.name, name))
  if (!network) throw new PaySessionError('UNSUPPORTED_NETWORK', { details: String(name) })
  return network
}

/** The network with this chain id, if any. */
export function getNetworkByChainId(registry: Registry, chainId: number) {
  return registry.networks.find((n) => n.chainId === chainId)
}

/** The token with this symbol on this network, or `UNSUPPORTED_TOKEN`. */
export function getStablecoin(network: NetworkInfo, symbol: string | undefined): StablecoinInfo {
  const token = network.tokens.find((t) => sameName(t.symbol, symbol))
  if (!token)
    throw new PaySessionError('UNSUPPORTED_TOKEN', { details: `${symbol} on ${network.name}` })
  return token
}

/**
 * The network and the tokens a session accepts that the registry knows (`acceptedTokens` when
 * present, otherwise `tokenSymbol`). Refuses an unknown network or a session with no known token.
 */
export function resolveSessionAssets(
  registry: Registry,
  session: {
    network?: string | undefined
    tokenSymbol?: string | undefined
    acceptedTokens?: string[] | undefined
  },
): { network: NetworkInfo; tokens: StablecoinInfo[] } {
  const network = getNetwork(registry, session.network)
  const wanted = session.acceptedTokens?.length ? session.acceptedTokens : [session.tokenSymbol]
  const tokens = network.tokens.filter((token) => wanted.some((s) => sameName(s, token.symbol)))
  if (tokens.length === 0)
    throw new PaySessionError('UNSUPPORTED_TOKEN', {
      details: `${wanted.join(', ')} on ${network.name}`,
    })
  return { network, tokens }
}

// An address with a wrong EIP-55 checksum is refused; an all-lowercase one is checksummed.
function checkToken(network: NetworkInfo, token: StablecoinInfo): StablecoinInfo {
  if (!isAddress(token.address, { strict: true }))
    throw new PaySessionError('INVALID_ADDRESS', {
      details: `${token.symbol} on ${network.name}: ${token.address} is not a valid address`,
    })
  if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36)
    throw new PaySessionError('INVALID_AMOUNT', {
      details: `${token.symbol} on ${network.name}: bad decimals`,
    })
  return { ...token, symbol: token.symbol.toUpperCase(), address: getAddress(token.address) }
}
