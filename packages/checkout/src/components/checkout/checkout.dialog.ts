import type { CheckoutState } from '@paysession/core'
import { html, type TemplateResult } from 'lit'
import { CheckoutController, type CheckoutHost } from '../../controllers/checkout.controller.js'
import { gaslessView, lazyViews, loadWallets, paths } from '../../loads.dialog.js'
import { dialogStyles } from './checkout.dialog.styles.js'
import { type Controller, errorText, spinner, type T, type View } from './checkout.parts.js'
import { chooseToken } from './steps/chooseToken.js'
import { chooseWallet } from './steps/chooseWallet.js'
import { ended, failedTitle } from './steps/ended.js'
import { paid } from './steps/paid.js'
import { review } from './steps/review.js'
import { waiting } from './steps/waiting.js'

// The code only the dialog needs: core's checkout (wagmi, viem, query-core), which view shows
// each step (steps/, one file a view), and their styles (every language's words load with the
// first file).
export { dialogStyles }

/** The element's checkout controller, with what it loads lazily (loads.dialog.ts). */
export const createController = (host: CheckoutHost) =>
  new CheckoutController(host, { paths, wallets: loadWallets })

/** The sentence the aria-live region announces for a state. */
export function announce(state: CheckoutState | undefined, t: T, ctl: Controller): string {
  if (!state) return t.loading
  const titles: Partial<Record<CheckoutState['step'], string>> = {
    loading: t.loading,
    chooseWallet: t.chooseWallet,
    connecting: t.connecting,
    chooseToken: t.chooseToken,
    review: t.review,
    confirmInWallet: t.confirmInWallet,
    waitingForWallet: t.waitingForWallet,
    submitted: t.confirming,
    confirming: t.confirming,
    // Without a hash nothing says it was sent: an open prompt elsewhere, or funds seen at the address.
    waitingForService: state.hash
      ? t.waitingForService
      : state.retryAt
        ? t.promptElsewhere
        : t.waitingForPayment,
    paid: t.paidTitle,
    completed: t.paidTitle,
    expired: t.expiredTitle,
    failed: failedTitle(state, t),
    manual: t.manualTitle,
    untracked: t.untrackedTitle,
  }
  // Untracked says it all; its error (a refused token) is for the page, not the customer.
  const error = ctl.error && state.step !== 'untracked' ? ` ${errorText(ctl.error, t)}` : ''
  return (titles[state.step] ?? '') + error
}

/** The dialog body for the controller's current state. */
export function renderStep(host: CheckoutHost, ctl: Controller, t: T): TemplateResult {
  const state = ctl.state
  if (!state) return spinner(t.loading)
  const view = { host, ctl, state, t }
  // The gasless button's chunk as soon as a token offers it, so the review shows it from the start.
  if (state.tokens.some((token) => token.gasless)) gaslessView(host)
  const body = steps[state.step](view)
  return html`${body}<p role="status" aria-live="polite" class="sr-only">${announce(state, t, ctl)}</p>`
}

const steps: Record<CheckoutState['step'], (view: View) => TemplateResult> = {
  loading: (v) => spinner(v.t.loading),
  chooseWallet,
  // WalletConnect's pairing QR code while a phone has not scanned it yet.
  connecting: (v) =>
    (v.ctl.pairingUri && lazyViews(v.host)?.pairing(v, v.ctl.pairingUri)) ||
    waiting(v, v.t.connecting, v.t.approveInWallet),
  chooseToken,
  review,
  confirmInWallet: (v) => waiting(v, v.t.confirmInWallet, v.t.confirmHint),
  waitingForWallet: (v) => waiting(v, v.t.waitingForWallet, v.t.waitingForWalletHint),
  submitted: (v) => waiting(v, v.t.confirming),
  confirming: (v) => waiting(v, v.t.confirming),
  // Without a hash (an open prompt elsewhere, or funds seen at the address) nothing says it was sent.
  // Both rare views (an open prompt elsewhere, a refused token) load with the manual payment's.
  waitingForService: (v) =>
    !v.state.hash && v.state.retryAt
      ? (lazyViews(v.host)?.promptElsewhere(v) ?? spinner(v.t.loading))
      : waiting(v, v.state.hash ? v.t.waitingForService : v.t.waitingForPayment),
  paid,
  completed: paid,
  expired: (v) => ended(v, v.t.expiredTitle),
  failed: (v) => ended(v, failedTitle(v.state, v.t)),
  // Its view (address, EIP-681 QR, wallet deep links) loads when a customer first needs it; from
  // it, "Pay with a wallet instead" shows the wallet list again.
  manual: (v) =>
    v.ctl.pickingWallet ? chooseWallet(v) : (lazyViews(v.host)?.manual(v) ?? spinner(v.t.loading)),
  untracked: (v) => lazyViews(v.host)?.untracked(v) ?? spinner(v.t.loading),
}
