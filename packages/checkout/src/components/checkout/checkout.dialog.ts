import type { CheckoutState } from '@paysession/core'
import { html, type TemplateResult } from 'lit'
import { CheckoutController, type CheckoutHost } from '../../controllers/checkout.controller.js'
import { lazyViews, loadWallets, paths } from '../../loads.dialog.js'
import { pathSteps, preloadPaths } from '../../paths/index.js'
import { dialogStyles } from './checkout.dialog.styles.js'
import {
  type Controller,
  errorText,
  type Step,
  spinner,
  type T,
  type View,
  type Words,
} from './checkout.parts.js'
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
  const v = { host, ctl, state, t }
  preloadPaths(v)
  const { title, view } = steps[state.step]
  // From a path's own step (the manual payment's), "Pay with a wallet instead" shows the wallets.
  const body = ctl.pickingWallet && pathSteps[state.step] ? chooseWallet : view
  // Untracked says it all; its error (a refused token) is for the page, not the customer.
  const error = ctl.error && state.step !== 'untracked' ? ` ${errorText(ctl.error, t)}` : ''
  return html`${body(v)}<p role="status" aria-live="polite" class="sr-only">${
    (typeof title === 'string' ? t[title] : title(v)) + error
  }</p>`
}

/** A step that shows a spinner with its title (and a hint). */
const waitingStep = (title: Words, hint?: Words): Step => ({
  title,
  view: (v) => waiting(v, v.t[title], hint && v.t[hint]),
})

// Without a hash (an open prompt elsewhere, or funds seen at the address) nothing says it was sent.
const waitingForServiceTitle = ({ state, t }: View) =>
  state.hash ? t.waitingForService : state.retryAt ? t.promptElsewhere : t.waitingForPayment

// Every step has a view: the paths' own (paths/) complete the table.
const steps = {
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
  untracked: {
    title: 'untrackedTitle',
    view: (v) => lazyViews(v.host)?.untracked(v) ?? spinner(v.t.loading),
  },
  ...pathSteps,
} as Record<CheckoutState['step'], Step>
