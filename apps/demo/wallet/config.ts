/**
 * What the Sandbox Wallet needs to know: the chain and the test customers it can act as. The
 * page passes it as JSON in the script tag's `data-config` (docs/demo.md).
 */
export type WalletConfig = {
  rpcUrl: string
  chainId: number
  accounts: string[]
  tokens: { symbol: string; address: string; decimals: number }[]
  /** The sandbox's test smart account (EIP-5792, bundler-submitted), for the wallet's "smart account" mode. */
  smartAccount?: { address: string; owner: string; bundler: string }
  /** The sandbox's Safe-like account (two owners), for the wallet's "Safe" mode. */
  safe?: { address: string; owners: string[] }
}
