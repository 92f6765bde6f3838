import { html, type TemplateResult } from 'lit'
import type { CheckoutController } from '../controllers/checkout.controller.js'

// The gasless (EIP-3009) button and its words: loaded only when the merchant set `relay-url`, so
// the default payment carries none of it. Core's signing and relay code loads on click.

const strings: Record<string, { pay: string; hint: string; note: string }> = {
  en: {
    pay: 'Pay without network fees',
    hint: 'You sign the payment; the shop pays the network fee.',
    note: 'With {tokens} you can pay without network fees.',
  },
  de: {
    pay: 'Ohne Netzwerkgebühr bezahlen',
    hint: 'Sie unterschreiben die Zahlung, der Shop zahlt die Netzwerkgebühr.',
    note: 'Mit {tokens} können Sie ohne Netzwerkgebühr bezahlen.',
  },
  fr: {
    pay: 'Payer sans frais de réseau',
    hint: 'Vous signez le paiement ; la boutique paie les frais de réseau.',
    note: 'Avec {tokens}, vous pouvez payer sans frais de réseau.',
  },
  es: {
    pay: 'Pagar sin comisiones de red',
    hint: 'Tú firmas el pago; la tienda paga la comisión de red.',
    note: 'Con {tokens} puedes pagar sin comisiones de red.',
  },
  it: {
    pay: 'Paga senza commissioni di rete',
    hint: 'Tu firmi il pagamento; il negozio paga la commissione di rete.',
    note: 'Con {tokens} puoi pagare senza commissioni di rete.',
  },
  ja: {
    pay: 'ネットワーク手数料なしで支払う',
    hint: 'お支払いに署名するだけで、ネットワーク手数料はショップが負担します。',
    note: '{tokens} ならネットワーク手数料なしで支払えます。',
  },
  ko: {
    pay: '네트워크 수수료 없이 결제',
    hint: '결제에 서명만 하면 네트워크 수수료는 상점이 부담합니다.',
    note: '{tokens}(으)로는 네트워크 수수료 없이 결제할 수 있습니다.',
  },
  nl: {
    pay: 'Betalen zonder netwerkkosten',
    hint: 'Jij ondertekent de betaling; de winkel betaalt de netwerkkosten.',
    note: 'Met {tokens} kun je zonder netwerkkosten betalen.',
  },
  pt: {
    pay: 'Pagar sem taxas de rede',
    hint: 'Você assina o pagamento; a loja paga a taxa de rede.',
    note: 'Com {tokens}, você pode pagar sem taxas de rede.',
  },
  zh: {
    pay: '免网络手续费支付',
    hint: '您只需签署付款，网络手续费由商家支付。',
    note: '使用 {tokens} 可免网络手续费支付。',
  },
}

const words = (locale: string) => strings[locale.toLowerCase().split('-')[0]!] ?? strings.en!

/** Where a customer without gas can still pay: "With USDC or EURC you can pay without network fees." */
export function gaslessNote(tokens: string[], locale: string): string {
  const list = new Intl.ListFormat(locale, { type: 'disjunction' }).format(tokens)
  return words(locale).note.replace('{tokens}', list)
}

/** "Pay without network fees", the main action when the wallet holds no coin for gas. */
export function gaslessButton(ctl: Readonly<CheckoutController>, locale: string): TemplateResult {
  const t = words(locale)
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
