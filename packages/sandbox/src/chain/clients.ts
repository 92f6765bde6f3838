import {
  type Chain,
  createPublicClient,
  createTestClient,
  defineChain,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
} from 'viem'
import { LOCAL_CHAIN_ID } from './tokens.js'

export const localChain = (rpcUrl: string) =>
  defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'Local (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

/** Clients for the sandbox's own chain work. cacheTime 0: viem would cache the block number for 4 s. */
export interface ChainClients {
  chain: Chain
  publicClient: PublicClient<Transport, Chain>
  testClient: TestClient<'anvil', Transport, Chain>
}

export function createChainClients(rpcUrl: string): ChainClients {
  const chain = localChain(rpcUrl)
  const transport = http(rpcUrl, { retryCount: 2 })
  return {
    chain,
    publicClient: createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 100 }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', cacheTime: 0 }),
  }
}
