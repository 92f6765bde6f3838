import type { CheckoutState, PaySessionError } from '@paysession/core'
import { html, nothing } from 'lit'
import type { CheckoutController, CheckoutHost } from '../../controllers/checkout.controller.js'
import type { ButtonStrings } from '../../i18n/button.js'
import type { Catalog } from '../../i18n/en.js'
import { formatTokenAmount } from '../../i18n/localize.js'

// What the dialog's step views and the manual payment's view share. Its own module, so that
// the manual view (loaded by the dialog) never imports the dialog back.

export type T = Catalog & ButtonStrings

export type View = { host: CheckoutHost; ctl: CheckoutController; state: CheckoutState; t: T }

export const errorText = (error: PaySessionError, t: T) =>
  t.errors[error.code] ?? error.shortMessage

export const errorBox = ({ state, t }: View) =>
  state.error ? html`<p part="error" role="alert">${errorText(state.error, t)}</p>` : nothing

export const tokenAmount = ({ host, state }: View, symbol?: string) =>
  formatTokenAmount(state.amount ?? state.session?.amount ?? '', symbol, host.resolvedLocale)

export function copyButton(view: View, text: string) {
  const { ctl, t } = view
  const copied = ctl.copied === text
  return html`<button
    class="small"
    type="button"
    aria-label=${copied ? t.copied : t.copyAddress}
    @click=${async () => {
      await navigator.clipboard?.writeText(text).catch(() => {})
      ctl.copied = text
      view.host.requestUpdate()
    }}
  >
    ${copied ? t.copied : t.copy}
  </button>`
}
