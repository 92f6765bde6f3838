import type { Address, Chain } from 'viem'

/** A token quirk the payment code must respect. */
export type StablecoinQuirk = 'transferReturnsNothing'

export type StablecoinInfo = {
  symbol: string
  address: Address
  decimals: number
  quirks?: readonly StablecoinQuirk[]
  /**
   * The token implements EIP-3009 `transferWithAuthorization` (Circle's FiatToken v2, Paxos's
   * PYUSD): a customer can pay by signing, and a relayer submits and pays the gas. The EIP-712
   * domain's name and version are read on chain, never assumed.
   */
  eip3009?: boolean | undefined
  /**
   * The EIP-712 domain an EIP-3009 authorization is signed for. When given, the token's own
   * (`eip712Domain()`, else `name()` and `version()`) must match before any prompt; when not, the
   * token's own is used.
   */
  eip712?: { name: string; version: string } | undefined
}

export type NetworkInfo = {
  /** The service's network name, e.g. `ETHEREUM`, `LOCAL`. */
  name: string
  chainId: number
  /** The name customers read ("Base", "Local test chain"); the chain's name when not given. */
  displayName?: string | undefined
  /** A small square image URL (often an SVG `data:` URI) shown beside the name. */
  icon?: string | undefined
  /** Block explorer base URL, when the network has one (https; shown as links). */
  explorerUrl: string | undefined
  /** viem chain used to build the wagmi config and to add the chain to a wallet. */
  chain: Chain
  tokens: readonly StablecoinInfo[]
}

export type Registry = { readonly networks: readonly NetworkInfo[] }
