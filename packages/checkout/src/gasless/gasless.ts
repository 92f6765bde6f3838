import { html, type TemplateResult } from 'lit'
import type { CheckoutController } from '../controllers/checkout.controller.js'

// The gasless (EIP-3009) button and its words: loaded only when the merchant set `relay-url`, so
// the default payment carries none of it. Core's signing and relay code loads on click.

const strings: Record<string, { pay: string; hint: string }> = {
  en: {
    pay: 'Pay without network fees',
    hint: 'You sign the payment; the shop pays the network fee.',
  },
  de: {
    pay: 'Ohne Netzwerkgebühr bezahlen',
    hint: 'Sie unterschreiben die Zahlung, der Shop zahlt die Netzwerkgebühr.',
  },
  fr: {
    pay: 'Payer sans frais de réseau',
    hint: 'Vous signez le paiement ; la boutique paie les frais de réseau.',
  },
}

/** "Pay without network fees", the main action when the wallet holds no coin for gas. */
export function gaslessButton(ctl: CheckoutController, locale: string): TemplateResult {
  const t = strings[locale.toLowerCase().split('-')[0]!] ?? strings.en!
  const primary = ctl.state?.gasWarning
  return html`<button
      class=${primary ? 'primary' : ''}
      part="gasless"
      type="button"
      ?data-autofocus=${primary}
      @click=${() => ctl.checkout?.pay({ gasless: true })}
    >
      ${t.pay}
    </button>
    <p class="center muted">${t.hint}</p>`
}
