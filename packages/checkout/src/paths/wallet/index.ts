import { html } from 'lit'
import { tokenAmount } from '../../components/checkout/checkout.parts.js'
import { format } from '../../i18n/localize.js'
import type { PathView } from '../pathView.js'

/** The default way to pay: the review's "Pay 12.50 USDC", one transfer from the wallet. */
export const wallet: PathView = {
  button: {
    offered: () => true,
    render: (view, primary) => html`<button
      class=${primary ? 'primary' : ''}
      part="primary"
      type="button"
      ?data-autofocus=${primary}
      @click=${() => (view.state.canRetry ? view.ctl.retry() : view.ctl.pay())}
    >
      ${format(view.t.confirmPay, { amount: tokenAmount(view, view.state.selectedToken) })}
    </button>`,
  },
}
