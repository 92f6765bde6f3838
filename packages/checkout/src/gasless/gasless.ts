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
  es: {
    pay: 'Pagar sin comisiones de red',
    hint: 'Tú firmas el pago; la tienda paga la comisión de red.',
  },
  it: {
    pay: 'Paga senza commissioni di rete',
    hint: 'Tu firmi il pagamento; il negozio paga la commissione di rete.',
  },
  ja: {
    pay: 'ネットワーク手数料なしで支払う',
    hint: 'お支払いに署名するだけで、ネットワーク手数料はショップが負担します。',
  },
  ko: {
    pay: '네트워크 수수료 없이 결제',
    hint: '결제에 서명만 하면 네트워크 수수료는 상점이 부담합니다.',
  },
  nl: {
    pay: 'Betalen zonder netwerkkosten',
    hint: 'Jij ondertekent de betaling; de winkel betaalt de netwerkkosten.',
  },
  pt: {
    pay: 'Pagar sem taxas de rede',
    hint: 'Você assina o pagamento; a loja paga a taxa de rede.',
  },
  zh: {
    pay: '免网络手续费支付',
    hint: '您只需签署付款，网络手续费由商家支付。',
  },
}

/** "Pay without network fees", the main action when the wallet holds no coin for gas. */
export function gaslessButton(ctl: Readonly<CheckoutController>, locale: string): TemplateResult {
  const t = strings[locale.toLowerCase().split('-')[0]!] ?? strings.en!
  const primary = ctl.state?.gasWarning
  return html`<button
      class=${primary ? 'primary' : ''}
      part="gasless"
      type="button"
      ?data-autofocus=${primary}
      @click=${() => ctl.pay({ gasless: true })}
    >
      ${t.pay}
    </button>
    <p class="center muted">${t.hint}</p>`
}
