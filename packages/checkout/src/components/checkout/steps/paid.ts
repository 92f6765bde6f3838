import { html, nothing } from 'lit'
import { format } from '../../../i18n/localize.js'
import { money, tokenAmount, txLink, type View } from '../checkout.parts.js'

/** Paid (and completed): the amount, the token paid with, the transaction. */
export function paid(view: View) {
  const { host, state, t } = view
  return html`
    <div class="center">
      <div class="success" aria-hidden="true">✓</div>
      <h3>${t.paidTitle}</h3>
      <p>${format(t.paidText, { amount: money(view) })}</p>
      ${state.session?.tokenSymbol ? html`<p class="muted">${tokenAmount(view, state.session.tokenSymbol)}</p>` : nothing}
    </div>
    ${txLink(view)}
    <div class="actions">
      <button class="primary" part="primary" type="button" data-autofocus @click=${() => host.close()}>
        ${t.done}
      </button>
    </div>
  `
}
