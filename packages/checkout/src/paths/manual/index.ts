import { html } from 'lit'
import { spinner } from '../../components/checkout/checkout.parts.js'
import { lazyViews } from '../../loads.dialog.js'
import type { PathView } from '../pathView.js'

/**
 * Paying by hand: "Pay from another wallet or an exchange" under the wallet and token choices
 * (the main action when the browser has no wallet), and its own step, whose view (./manual.ts:
 * the address, the amount, an EIP-681 QR code) loads with the rarer views when first shown.
 */
export const manual: PathView = {
  link: ({ ctl, t }, primary) =>
    primary
      ? html`<button class="primary" part="primary" type="button" data-autofocus
            @click=${() => ctl.payManually()}>${t.payManually}</button>`
      : html`<button class="link" type="button" @click=${() => ctl.payManually()}>
    ${t.payManually}
  </button>`,
  steps: {
    manual: {
      title: 'manualTitle',
      view: (v) => lazyViews(v.host)?.manual(v) ?? spinner(v.t.loading),
    },
  },
}
