import { html, type TemplateResult } from 'lit'
import type { CheckoutController } from '../../controllers/checkout.controller.js'
import type { Catalog } from '../../i18n/en.js'

// The gasless (EIP-3009) button, a lazy chunk of its own (./index.ts loads it): loaded only when
// a token offers it (the merchant set `relay-url`), so the default payment carries none of it.
// Core's signing and relay code loads on click. Its words are the language file's (`gasless*`).

/** Where a customer without gas can still pay: "With USDC or EURC you can pay without network fees." */
export function gaslessNote(t: Catalog, tokens: string[], locale: string): string {
  const list = new Intl.ListFormat(locale, { type: 'disjunction' }).format(tokens)
  return t.gaslessNote.replace('{tokens}', list)
}

/** "Pay without network fees", the main action (`primary`) when the wallet holds no coin for gas. */
export function gaslessButton(
  ctl: Readonly<CheckoutController>,
  t: Catalog,
  primary: boolean,
): TemplateResult {
  return html`<button
      class=${primary ? 'primary' : ''}
      part="gasless"
      type="button"
      ?data-autofocus=${primary}
      @click=${() => ctl.pay({ path: 'gasless' })}
    >
      ${t.gaslessPay}
    </button>
    <p class="center muted">${t.gaslessHint}</p>`
}
