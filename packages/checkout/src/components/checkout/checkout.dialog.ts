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

/** The dialog body for the controller's current state, and the sentence its live region says. */
export function renderStep(host: CheckoutHost, ctl: Controller, t: T): TemplateResult {
  const state = ctl.state
  if (!state) return spinner(t.loading)
  const view = { host, ctl, state, t }
  // The gasless button's chunk as soon as a token offers it, so the review shows it from the start.
  if (state.tokens.some((token) => token.gasless)) gaslessView(host)
  const { title, view: body } = steps[state.step]
  // Untracked says it all; its error (a refused token) is for the page, not the customer.
  const error = ctl.error && state.step !== 'untracked' ? ` ${errorText(ctl.error, t)}` : ''
  return html`${body(view)}<p role="status" aria-live="polite" class="sr-only">${
    (typeof title === 'string' ? t[title] : title(view)) + error
  }</p>`
}

/** A sentence of the language file. */
type Words = { [K in keyof T]: T[K] extends string ? K : never }[keyof T]

/** A step's view, and its title: what the live region announces when the step shows. */
type Step = { title: Words | ((view: View) => string); view: (view: View) => TemplateResult }

/** A step that shows a spinner with its title (and a hint). */
const waitingStep = (title: Words, hint?: Words): Step => ({
  title,
  view: (v) => waiting(v, v.t[title], hint && v.t[hint]),
})

// Without a hash (an open prompt elsewhere, or funds seen at the address) nothing says it was sent.
const waitingForServiceTitle = ({ state, t }: View) =>
  state.hash ? t.waitingForService : state.retryAt ? t.promptElsewhere : t.waitingForPayment

const steps: Record<CheckoutState['step'], Step> = {
  loading: { title: 'loading', view: (v) => spinner(v.t.loading) },
  chooseWallet: { title: 'chooseWallet', view: chooseWallet },
  // WalletConnect's pairing QR code while a phone has not scanned it yet.
  connecting: {
    title: 'connecting',
    view: (v) =>
      (v.ctl.pairingUri && lazyViews(v.host)?.pairing(v, v.ctl.pairingUri)) ||
      waiting(v, v.t.connecting, v.t.approveInWallet),
  },
  chooseToken: { title: 'chooseToken', view: chooseToken },
  review: { title: 'review', view: review },
  confirmInWallet: waitingStep('confirmInWallet', 'confirmHint'),
  waitingForWallet: waitingStep('waitingForWallet', 'waitingForWalletHint'),
  submitted: waitingStep('confirming'),
  confirming: waitingStep('confirming'),
  // Both rare views (an open prompt elsewhere, a refused token) load with the manual payment's.
  waitingForService: {
    title: waitingForServiceTitle,
    view: (v) =>
      !v.state.hash && v.state.retryAt
        ? (lazyViews(v.host)?.promptElsewhere(v) ?? spinner(v.t.loading))
        : waiting(v, waitingForServiceTitle(v)),
  },
  paid: { title: 'paidTitle', view: paid },
  completed: { title: 'paidTitle', view: paid },
  expired: { title: 'expiredTitle', view: (v) => ended(v, v.t.expiredTitle) },
  failed: {
    title: (v) => failedTitle(v.state, v.t),
    view: (v) => ended(v, failedTitle(v.state, v.t)),
  },
  // Its view (address, EIP-681 QR, wallet deep links) loads when a customer first needs it; from
  // it, "Pay with a wallet instead" shows the wallet list again.
  manual: {
    title: 'manualTitle',
    view: (v) =>
      v.ctl.pickingWallet
        ? chooseWallet(v)
        : (lazyViews(v.host)?.manual(v) ?? spinner(v.t.loading)),
  },
  untracked: {
    title: 'untrackedTitle',
    view: (v) => lazyViews(v.host)?.untracked(v) ?? spinner(v.t.loading),
  },
}
