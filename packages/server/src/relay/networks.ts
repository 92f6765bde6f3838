import { eip3009Abi } from '@paysession/protocol'
import {
  type Address,
  type Chain,
  createPublicClient,
  defineChain,
  getAddress,
  http,
  type PublicClient,
} from 'viem'
import type { RelayNetwork, ResolvedRelayOptions } from './options.js'

export type TokenInfo = { address: Address; name: string; version: string; decimals: number }

/** One configured network: its clients, built on first use, and its tokens' domains. */
export type Network = {
  name: string
  config: RelayNetwork
  chain: Chain
  publicClient: PublicClient
  /** The token's EIP-712 domain and decimals (configured, or read once), or none. */
  tokenOf(symbol: string): Promise<TokenInfo> | undefined
}

/** The relay's networks by service network name, each built on first use. */
export function createNetworks(options: Pick<ResolvedRelayOptions, 'networks'>) {
  const built = new Map<string, Network>()
  return function networkOf(name: string): Network | undefined {
    const config = options.networks[name]
    if (!config) return undefined
    let network = built.get(name)
    if (!network) {
      network = buildNetwork(name, config)
      built.set(name, network)
    }
    return network
  }
}

function buildNetwork(name: string, config: RelayNetwork): Network {
  const chain = defineChain({
    id: config.chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
  const transport = http(config.rpcUrl)
  const publicClient = createPublicClient({ chain, transport })
  const tokens = new Map<string, Promise<TokenInfo>>()
  return {
    name,
    config,
    chain,
    publicClient,
    tokenOf(symbol) {
      const entry = Object.entries(config.tokens).find(
        ([s]) => s.toUpperCase() === symbol.toUpperCase(),
      )
      if (!entry) return undefined
      const [key, configured] = entry
      let info = tokens.get(key)
      if (!info) {
        if (typeof configured === 'object') {
          info = Promise.resolve({ ...configured, address: getAddress(configured.address) })
        } else {
          const address = getAddress(configured)
          const read = <F extends 'name' | 'version' | 'decimals'>(functionName: F) =>
            publicClient.readContract({ address, abi: eip3009Abi, functionName })
          info = Promise.all([read('name'), read('version'), read('decimals')]).then(
            ([name, version, decimals]) => ({ address, name, version, decimals }),
          )
          // A failed read is tried again by the next request.
          info.catch(() => tokens.delete(key))
        }
        tokens.set(key, info)
      }
      return info
    },
  }
}
