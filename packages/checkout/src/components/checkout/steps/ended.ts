import type { CheckoutState } from '@paysession/core'
import { html, nothing } from 'lit'
import { errorBox, type T, txLink, type View } from '../checkout.parts.js'

/** Expired or failed: why, the transaction if any, and retry where it can help. */
export function ended(view: View, title: string) {
  const { ctl, host, state, t } = view
  return html`
    <h3>${title}</h3>
    ${errorBox(view)}
    ${txLink(view)}
    <div class="actions">
      ${
        state.canRetry
          ? html`<button class="primary" part="primary" type="button" data-autofocus
            @click=${() => ctl.retry()}>${t.retry}</button>`
          : nothing
      }
      <button type="button" ?data-autofocus=${!state.canRetry} @click=${() => host.close()}>${t.close}</button>
    </div>
  `
}

// "Payment failed" only when a payment was attempted; not when nothing could even start.
const unreachable = ['CHAIN_UNAVAILABLE', 'API_UNAVAILABLE', 'TIMEOUT']
const attempted = ['TRANSACTION_FAILED', 'TRANSFER_MISMATCH', 'SESSION_FAILED', 'WALLET_ERROR']
export function failedTitle(state: CheckoutState, t: T) {
  const code = state.error?.code ?? ''
  if (unreachable.includes(code)) return t.unreachableTitle
  return state.hash || attempted.includes(code) ? t.failedTitle : t.unavailable
}
