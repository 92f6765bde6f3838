import { anvil } from 'viem/chains'
import { networkIcon } from './networkIcon.js'
import type { NetworkInfo } from './types.js'

/**
 * The sandbox's chain: anvil, chain id 31337, with tokens at deterministic addresses. No
 * explorer. Its USDC and EURC are Circle's FiatToken v2.2, initialized as on mainnet (EIP-712
 * names "USD Coin" and "Euro Coin"); USDT is a test token without EIP-3009.
 */
export function localNetwork(rpcUrl = 'http://127.0.0.1:8545'): NetworkInfo {
  const chain = {
    ...anvil,
    // A block per transaction (automine), so a wait looks every half second (viem polls at half
    // the block time), not every 4 s.
    blockTime: 1_000,
    name: 'Local (sandbox)',
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  }
  return {
    name: 'LOCAL',
    chainId: 31337,
    displayName: 'Local test chain',
    // A grey square mark: plainly not a real network.
    icon: networkIcon('#6b7280', 'M10 10h12v12H10z'),
    explorerUrl: undefined,
    chain,
    tokens: [
      {
        symbol: 'USDC',
        address: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC',
        decimals: 6,
        eip3009: true,
        eip712: { name: 'USD Coin', version: '2' },
      },
      {
        symbol: 'USDT',
        address: '0x6d741950129e74422fb11ff179C11710c8d2d7CB',
        decimals: 6,
        quirks: ['transferReturnsNothing'],
      },
      {
        symbol: 'EURC',
        address: '0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57',
        decimals: 6,
        eip3009: true,
        eip712: { name: 'Euro Coin', version: '2' },
      },
    ],
  }
}
