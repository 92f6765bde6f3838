import { type Address, type Hex, keccak256, toHex } from 'viem'

/** The key that deploys the test tokens at nonces 0, 1, 2: the LOCAL addresses never change. */
export const DEPLOYER_KEY: Hex = keccak256(toHex('paysession.sandbox.deployer.v1'))

export const LOCAL_CHAIN_ID = 31337
export const LOCAL_NETWORK = 'LOCAL'

export interface LocalToken {
  symbol: 'USDC' | 'USDT' | 'EURC'
  name: string
  address: Address
  decimals: number
  contract: 'TestStablecoin' | 'TestTetherToken'
  /** Implements EIP-3009 transferWithAuthorization (Circle's FiatToken v2 shape). */
  eip3009: boolean
}

/** In deployment order: the index is the deployer's nonce. */
export const LOCAL_TOKENS: readonly LocalToken[] = [
  {
    symbol: 'USDC',
    name: 'USD Coin (test)',
    address: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC',
    decimals: 6,
    contract: 'TestStablecoin',
    eip3009: true,
  },
  {
    symbol: 'USDT',
    name: 'Tether USD (test)',
    address: '0x6d741950129e74422fb11ff179C11710c8d2d7CB',
    decimals: 6,
    contract: 'TestTetherToken',
    eip3009: false,
  },
  {
    symbol: 'EURC',
    name: 'EURC (test)',
    address: '0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57',
    decimals: 6,
    contract: 'TestStablecoin',
    eip3009: true,
  },
]

export const tokenBySymbol = (symbol: string) => LOCAL_TOKENS.find((t) => t.symbol === symbol)
export const tokenByAddress = (address: string) =>
  LOCAL_TOKENS.find((t) => t.address.toLowerCase() === address.toLowerCase())

/** Currencies the sandbox accepts: minor units and the tokens that settle them (first is the default). */
export const CURRENCIES: Record<string, { minorUnits: number; tokens: LocalToken['symbol'][] }> = {
  USD: { minorUnits: 2, tokens: ['USDC', 'USDT'] },
  EUR: { minorUnits: 2, tokens: ['EURC'] },
}

/** ERC-20 ABI whose transfer returns nothing, so it works for USDT and for bool-returning tokens alike. */
export const erc20Abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const
