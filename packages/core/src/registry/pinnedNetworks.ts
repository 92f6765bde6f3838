import type { Chain } from 'viem'
import {
  arbitrum,
  avalanche,
  base,
  baseSepolia,
  celo,
  mainnet,
  optimism,
  polygon,
  sepolia,
} from 'viem/chains'
import { networkIcon } from './networkIcon.js'
import type { NetworkInfo, StablecoinInfo } from './types.js'

// Pinned from the issuers' published addresses (Circle: developers.circle.com/stablecoins/
// usdc-contract-addresses and eurc-contract-addresses; Paxos: docs.paxos.com/guides/stablecoin/
// pyusd/mainnet and /testnet), cross-checked with DefiLlama's peggedassets-server and Uniswap's
// default-token-list. Left out on purpose:
// OPTIMISM USDT (sources disagree between USD₮0 and the legacy bridged USDT) and SEPOLIA PYUSD
// (decimals only assumed). A merchant whose service uses them adds them with extendRegistry.
//
// EIP-3009 (`eip3009: true`), per network and token, not per symbol:
// - Circle's USDC and EURC are FiatToken v2.x on every network pinned here (Circle's pages above;
//   https://developers.circle.com/stablecoins/usdc-contract-addresses and .../eurc-contract-addresses;
//   circlefin/stablecoin-evm contracts/v2/EIP3009.sol). coinbase/x402's "exact" EVM scheme
//   submits transferWithAuthorization on Base and Base Sepolia USDC (x402
//   python/x402/mechanisms/evm/constants.py). The EIP-712 name differs ("USD Coin" on mainnet,
//   "USDC" on Base Sepolia): the token's own is read on chain, which for a pinned address is the
//   truth. A token a page adds may state `eip712`, which the chain must then match.
// - PYUSD on Ethereum is PaxosTokenV2 with EIP-3009, EIP-712 version "1" (Paxos's pages above).
//   PYUSD on Arbitrum: no source found, so no.
// - Legacy USDT on Ethereum has none (TetherToken source). The USD₮0 deployments (Arbitrum,
//   Polygon, Celo) and Avalanche USDt: no source found here, so no until one is.
// - DAI (its own permit only) and USDS: no.

// Marks drawn for this SDK in each network's colour (not the networks' own logos): a glyph
// that tells them apart at 20 px.
const ethereumGlyph = 'M16 5l7 11.5-7 4.2-7-4.2zm-7 13l7 4.1 7-4.1-7 9.5z'
const baseGlyph = 'M16 6a10 10 0 1 1 0 20a10 10 0 1 1 0-20zM6 14.6h11v2.8H6z'
const icons: Record<string, string> = {
  ETHEREUM: networkIcon('#627eea', ethereumGlyph),
  SEPOLIA: networkIcon('#8a92b2', ethereumGlyph),
  BASE: networkIcon('#0052ff', baseGlyph),
  BASE_SEPOLIA: networkIcon('#5b8cff', baseGlyph),
  ARBITRUM: networkIcon('#213147', 'M16 6l9 16h-4l-5-9-5 9H7z'),
  OPTIMISM: networkIcon(
    '#ff0420',
    'M16 8a8 8 0 1 1 0 16a8 8 0 1 1 0-16zm0 4a4 4 0 1 0 0 8a4 4 0 1 0 0-8z',
  ),
  POLYGON: networkIcon('#8247e5', 'M16 6l9 5v10l-9 5-9-5V11zm0 5l-4.5 2.5v5L16 21l4.5-2.5v-5z'),
  AVALANCHE: networkIcon('#e84142', 'M16 8l9 16H7z'),
  CELO: networkIcon(
    '#35d07f',
    'M13 8a6 6 0 1 1 0 12a6 6 0 1 1 0-12zm6 4a6 6 0 1 1 0 12a6 6 0 1 1 0-12z',
  ),
}

const network = (name: string, chain: Chain, tokens: StablecoinInfo[]): NetworkInfo => ({
  name,
  chainId: chain.id,
  icon: icons[name],
  explorerUrl: chain.blockExplorers?.default.url,
  chain,
  tokens,
})

export const pinnedNetworks: readonly NetworkInfo[] = [
  network('ETHEREUM', mainnet, [
    {
      symbol: 'USDC',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'EURC',
      address: '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'USDT',
      address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
      quirks: ['transferReturnsNothing'],
    },
    { symbol: 'DAI', address: '0x6B175474E89094C44Da98b954EedeAC495271d0F', decimals: 18 },
    {
      symbol: 'PYUSD',
      address: '0x6c3ea9036406852006290770BEdFcAbA0e23A0e8',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDS', address: '0xdC035D45d973E3EC169d2276DDab16f1e407384F', decimals: 18 },
  ]),
  network('SEPOLIA', sepolia, [
    {
      symbol: 'USDC',
      address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'EURC',
      address: '0x08210F9170F89Ab7658F0B5E3fF39b0E03C594D4',
      decimals: 6,
      eip3009: true,
    },
  ]),
  network('BASE', base, [
    {
      symbol: 'USDC',
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'EURC',
      address: '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDS', address: '0x820C137fa70C8691f0e44Dc420a5e53c168921Dc', decimals: 18 },
  ]),
  network('BASE_SEPOLIA', baseSepolia, [
    {
      symbol: 'USDC',
      address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'EURC',
      address: '0x808456652fdb597867f38412077A9182bf77359F',
      decimals: 6,
      eip3009: true,
    },
  ]),
  network('ARBITRUM', arbitrum, [
    {
      symbol: 'USDC',
      address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDT', address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6 },
    { symbol: 'DAI', address: '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1', decimals: 18 },
    { symbol: 'PYUSD', address: '0x46850aD61C2B7d64d08c9C754F45254596696984', decimals: 6 },
    { symbol: 'USDS', address: '0x6491c05A82219b8D1479057361ff1654749b876b', decimals: 18 },
  ]),
  network('OPTIMISM', optimism, [
    {
      symbol: 'USDC',
      address: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'DAI', address: '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1', decimals: 18 },
    { symbol: 'USDS', address: '0x4F13a96EC5C4Cf34e442b46Bbd98a0791F20edC3', decimals: 18 },
  ]),
  network('POLYGON', polygon, [
    {
      symbol: 'USDC',
      address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
  ]),
  network('AVALANCHE', avalanche, [
    {
      symbol: 'USDC',
      address: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
      decimals: 6,
      eip3009: true,
    },
    {
      symbol: 'EURC',
      address: '0xC891EB4cbdEFf6e073e859e987815Ed1505c2ACD',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDT', address: '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', decimals: 6 },
    { symbol: 'USDS', address: '0x86Ff09db814ac346a7C6FE2Cd648F27706D1D470', decimals: 18 },
  ]),
  network('CELO', celo, [
    {
      symbol: 'USDC',
      address: '0xcebA9300f2b948710d2653dD7B07f33A8B32118C',
      decimals: 6,
      eip3009: true,
    },
    { symbol: 'USDT', address: '0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e', decimals: 6 },
  ]),
]
