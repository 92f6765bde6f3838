import type { PaySessionErrorCode } from '@paysession/core'
import { type ButtonStrings, button } from './button.js'

/**
 * The English dialog strings (the button's are in button.ts). `{name}` marks a value.
 * Error sentences fall back to core's English `shortMessage` when a code is missing.
 */
export const en = {
  chooseWallet: 'Choose a wallet',
  noWallet: 'No wallet was found in this browser.',
  payManually: 'Pay from another wallet or an exchange',
  connecting: 'Connecting to your wallet…',
  approveInWallet: 'Approve the request in your wallet.',
  chooseToken: 'Choose a stablecoin',
  balance: 'Balance: {balance}',
  tooLow: 'Balance too low',
  gasWarning: 'Your wallet has no {coin} to pay the network fee.',
  changeWallet: 'Use another wallet',
  review: 'Review your payment',
  amount: 'Amount',
  token: 'Stablecoin',
  network: 'Network',
  to: 'To',
  from: 'From',
  copy: 'Copy',
  copyAddress: 'Copy address',
  copied: 'Copied',
  confirmPay: 'Pay {amount}',
  change: 'Change',
  confirmInWallet: 'Confirm the payment in your wallet',
  confirmHint: 'Check the amount and the address, then confirm.',
  confirming: 'Confirming on the network…',
  viewTransaction: 'View the transaction',
  transaction: 'Transaction',
  waitingForService: 'Payment sent. Waiting for the payment service…',
  waitingForPayment: 'Waiting for the payment…',
  waitingForWallet: 'Waiting for your wallet to send the payment…',
  waitingForWalletHint: 'It may need more approvals. You can close the checkout meanwhile.',
  paidTitle: 'Payment received',
  paidText: 'You paid {amount}.',
  done: 'Done',
  expiredTitle: 'Payment expired',
  failedTitle: 'Payment failed',
  unreachableTitle: 'Can’t reach the network',
  retry: 'Try again',
  manualTitle: 'Pay manually',
  payWithWallet: 'Pay with a wallet instead',
  manualText: 'Send exactly {amount} {token} on {network} to this address:',
  manualQr: 'QR code to pay {amount} {token} to {address}',
  openInWallet: 'Open in a wallet app',
  manualWaiting: 'Waiting for your payment…',
  received: 'Received so far: {amount} {token}',
  payBefore: 'Pay before {time}',
  promptElsewhere:
    'Your wallet may still be showing a request for this payment. Confirm or reject it there.',
  payAgainIn: 'You can pay again here in {time}.',
  untrackedTitle: 'This payment can no longer be followed here',
  untrackedText:
    'A payment you already sent still reaches the merchant: do not pay again. Otherwise, reload the page or contact the merchant.',
  untrackedWatching: 'Watching the network for your payment…',
  /**
   * The registry's network names that are words, not brands, by their English name (core's
   * `displayName`): "Local test chain". Brand names (Base, Ethereum) are never translated.
   */
  networks: {} as Record<string, string>,
  errors: {} as Partial<Record<PaySessionErrorCode, string>>,
}

/** Every string of one language: what a catalog chunk (en.ts, de.ts, ja.ts...) exports. */
export type Catalog = typeof en & ButtonStrings

export const catalog: Catalog = { ...button, ...en }
