import type { CheckoutState, PaySessionError } from '@paysession/core'
import { html, nothing, type TemplateResult } from 'lit'
import type { CheckoutController, CheckoutHost } from '../../controllers/checkout.controller.js'
import type { Catalog } from '../../i18n/en.js'
import { formatMoney, formatTokenAmount } from '../../i18n/localize.js'

// What the dialog's step views and the manual payment's view share. Its own module, so that
// the manual view (loaded by the dialog) never imports the dialog back.

export type T = Catalog

/** The controller as views see it: they read its fields and call its methods, never assign. */
export type Controller = Readonly<CheckoutController>

export type View = { host: CheckoutHost; ctl: Controller; state: CheckoutState; t: T }

/** A sentence of the language file. */
export type Words = { [K in keyof T]: T[K] extends string ? K : never }[keyof T]

/** A step's view, and its title: what the live region announces when the step shows. */
export type Step = { title: Words | ((view: View) => string); view: (view: View) => TemplateResult }

// A configuration the checkout refuses (INVALID_CONFIG) reads as an insecure one: the same
// sentence, so no language carries it twice.
export const errorText = (error: PaySessionError, t: T) =>
  t.errors[error.code === 'INVALID_CONFIG' ? 'INSECURE_API_BASE' : error.code] ?? error.shortMessage

// A decline in the wallet is the customer's own choice and an expiry an end, not a fault: said
// plainly, not in red.
export const neutral = ['USER_REJECTED', 'SESSION_EXPIRED', 'SESSION_TOKEN_EXPIRED']

export const errorBox = ({ ctl, t }: View) =>
  ctl.error
    ? html`<p part=${neutral.includes(ctl.error.code) ? 'notice' : 'error'} role="alert">
        ${errorText(ctl.error, t)}
      </p>`
    : nothing

/**
 * The network's name for people: the registry's ("Base"), or in the customer's language where
 * the name is words, not a brand (the sandbox's "Local test chain").
 */
export const networkName = ({ state, t }: View) => {
  const name = state.network?.displayName ?? state.network?.name ?? state.session?.network ?? ''
  return t.networks[name] ?? name
}

export const tokenAmount = ({ host, state }: View, symbol?: string) =>
  formatTokenAmount(state.amount ?? state.session?.amount ?? '', symbol, host.resolvedLocale)

/** A copy button, under or beside the address (or, with its own `label`, the link) it copies. */
export function copyButton(view: View, text: string, label = view.t.copyAddress) {
  const { ctl, t } = view
  const copied = ctl.copied === text
  return html`<button
    class="copy"
    type="button"
    aria-label=${copied ? t.copied : label}
    @click=${() => ctl.copy(text)}
  >
    ${copied ? `✓ ${t.copied}` : label}
  </button>`
}

// Core lists the plain injected connector even when the page has no window.ethereum: hide it then.
export const usable = (state: CheckoutState) =>
  state.wallets.filter((w) => w.id !== 'injected' || 'ethereum' in globalThis)

/** A step still loading or waiting, with what it waits for. */
export const spinner = (text: string, hint?: string) =>
  html`<span class="spinner"></span><p class="center">${text}</p>${
    hint ? html`<p class="center muted">${hint}</p>` : nothing
  }`

export const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

export const money = ({ host, state }: View) =>
  formatMoney(
    state.amount ?? state.session?.amount ?? '',
    state.session?.currency,
    host.resolvedLocale,
  )

/** The transaction: a link to the explorer, else its short hash. */
export function txLink({ state, t }: View) {
  if (!state.hash) return nothing
  if (state.explorerTxUrl)
    return html`<p class="center">
      <a href=${state.explorerTxUrl} target="_blank" rel="noopener noreferrer">${t.viewTransaction}</a>
    </p>`
  return html`<p class="center muted">${t.transaction} <code>${short(state.hash)}</code></p>`
}
