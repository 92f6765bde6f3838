import type { Address, Hex } from 'viem'
import type { WalletInfo } from '../actions/getWallets.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionError } from '../errors/base.js'
import type { NetworkInfo } from '../registry/types.js'

export type CheckoutStep =
  | 'loading'
  | 'chooseWallet'
  | 'connecting'
  | 'chooseToken'
  | 'review'
  | 'confirmInWallet'
  /** The wallet accepted the payment but has not sent it yet (a multisig, a bundler). */
  | 'waitingForWallet'
  | 'submitted'
  | 'confirming'
  | 'waitingForService'
  | 'paid'
  | 'completed'
  | 'expired'
  | 'failed'
  | 'manual'
  /**
   * The service refuses this page's session token and no fresh one came: the page cannot follow
   * the session there any more. Not an expiry: a payment already sent still reaches the merchant,
   * and the checkout watches the one-time wallet on chain (then `paid`).
   */
  | 'untracked'

export type CheckoutToken = {
  symbol: string
  address: Address
  decimals: number
  balance?: bigint | undefined
  formattedBalance?: string | undefined
  sufficient: boolean
  /** Can be paid by signing, without network fees (EIP-3009 and the merchant's relay). */
  gasless?: boolean | undefined
}

export type CheckoutState = {
  step: CheckoutStep
  session?: PaymentSession | undefined
  network?: NetworkInfo | undefined
  wallets: WalletInfo[]
  account?: Address | undefined
  chainId?: number | undefined
  tokens: CheckoutToken[]
  selectedToken?: string | undefined
  /** The account has no native coin for gas on the session's network and pays its own fee (see `getStablecoinBalances`); a notice, never a reason to refuse a payment. */
  gasWarning: boolean
  /** The selected token can be paid by signing, without network fees (EIP-3009 and a relay). */
  gasless: boolean
  /** The session amount, a decimal string. */
  amount?: string | undefined
  hash?: Hex | undefined
  explorerTxUrl?: string | undefined
  error?: PaySessionError | undefined
  /**
   * When a new payment may start (ms since the epoch): a wallet prompt this checkout opened
   * (before a reload, or in another tab) may still be answered until then. The checkout offers
   * the payment again by itself at that time, or follows the transfer if the chain shows one.
   */
  retryAt?: number | undefined
  /** `retry()` is safe and does something now. */
  canRetry: boolean
}
