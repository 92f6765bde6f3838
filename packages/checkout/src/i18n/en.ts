import type { PaySessionErrorCode } from '@paysession/core'
import * as button from './en.button.js'

/**
 * Every English string of the widget; `{name}` marks a value. Every other language's file
 * (de.ts, pt-BR.ts...) has the same keys (test/catalogs.test.ts). The button's words are in the
 * first file (en.button.ts); the rest loads like every other language. Error sentences fall back
 * to core's English `shortMessage` when a code is missing.
 */
export const catalog = {
  ...button,
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
  payAgainIn: {
    one: 'You can pay again here in {count} second.',
    other: 'You can pay again here in {count} seconds.',
  } as Plural,
  untrackedTitle: 'This payment can no longer be followed here',
  untrackedText:
    'A payment you already sent still reaches the merchant: do not pay again. Otherwise, reload the page or contact the merchant.',
  untrackedWatching: 'Watching the network for your payment…',
  /**
   * The registry's network names that are words, not brands, by their English name (core's
   * `displayName`): "Local test chain". Brand names (Base, Ethereum) are never translated.
   */
  gaslessPay: 'Pay without network fees',
  gaslessHint: 'You sign the payment; the shop pays the network fee.',
  gaslessNote: 'With {tokens} you can pay without network fees.',
  noWalletOpenIn: 'Open this checkout in your wallet app:',
  noWalletScan: 'Scan this code with your phone to pay there:',
  noWalletQr: 'QR code that opens this checkout on your phone',
  pairingTitle: 'Connect with WalletConnect',
  pairingScan: 'Scan this code with your phone’s wallet, then approve the connection there.',
  pairingQr: 'WalletConnect QR code',
  pairingCopy: 'Copy link',
  networks: {} as Record<string, string>,
  errors: {} as Partial<Record<PaySessionErrorCode, string>>,
}

/**
 * A message by plural category, `{count}` the number: every category of the language's
 * `Intl.PluralRules` (`one`, `other` in English; `zero`, `one`, `two`, `few`, `many`, `other` in Arabic).
 */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

/** Every string of one language: what a language file (en.ts, de.ts, ja.ts...) exports. */
export type Catalog = typeof catalog
