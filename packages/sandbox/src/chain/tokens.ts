import { stablecoinAbi } from '@paysession/protocol'
import { type Address, type Hex, keccak256, parseAbiItem, toHex } from 'viem'

/**
 * The key that deploys the tokens at nonces 0, 1, 2 (the USDC and EURC proxies, the USDT test
 * token): the LOCAL addresses never change. It holds the FiatTokens' roles.
 */
export const DEPLOYER_KEY: Hex = keccak256(toHex('paysession.sandbox.deployer.v1'))

/**
 * Deploys the test smart-contract accounts at nonces 0 and 1 (their addresses never change), and
 * funds them: a FiatToken minter, as the deployer is.
 */
export const ACCOUNTS_DEPLOYER_KEY: Hex = keccak256(toHex('paysession.sandbox.accounts.v1'))

export const LOCAL_CHAIN_ID = 31337
export const LOCAL_NETWORK = 'LOCAL'

export interface LocalToken {
  symbol: 'USDC' | 'USDT' | 'EURC'
  name: string
  address: Address
  decimals: number
  /** The currency a FiatToken is initialized with. */
  currency: string
  /** Circle's FiatToken v2.2 behind its proxy, or the USDT-like test token. */
  contract: 'FiatTokenV2_2' | 'TestTetherToken'
  /** Implements EIP-3009 transferWithAuthorization (FiatToken v2). */
  eip3009: boolean
}

/** In deployment order: the index is the deployer's nonce. */
export const LOCAL_TOKENS: readonly LocalToken[] = [
  {
    symbol: 'USDC',
    name: 'USD Coin',
    address: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC',
    decimals: 6,
    currency: 'USD',
    contract: 'FiatTokenV2_2',
    eip3009: true,
  },
  {
    symbol: 'USDT',
    name: 'Tether USD (test)',
    address: '0x6d741950129e74422fb11ff179C11710c8d2d7CB',
    decimals: 6,
    currency: 'USD',
    contract: 'TestTetherToken',
    eip3009: false,
  },
  {
    symbol: 'EURC',
    // Mainnet EURC's name(), and so its EIP-712 domain name; its symbol is EURC.
    name: 'Euro Coin',
    address: '0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57',
    decimals: 6,
    currency: 'EUR',
    contract: 'FiatTokenV2_2',
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

/** The stablecoin ABI of @paysession/protocol, plus the test tokens' `mint`. */
export const erc20Abi = [
  ...stablecoinAbi,
  parseAbiItem('function mint(address to, uint256 value)'),
] as const

/** The ERC-20 `Transfer` event. */
export const transferEvent = stablecoinAbi[2]
