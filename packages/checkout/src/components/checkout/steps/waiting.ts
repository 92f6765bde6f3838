import { html, nothing } from 'lit'
import { errorBox, spinner, txLink, type View } from '../checkout.parts.js'

/** A step that waits (the wallet, the chain, the service): what for, the transaction, retry. */
export function waiting(view: View, text: string, hint?: string) {
  const { ctl, state, t } = view
  return html`${errorBox(view)}${spinner(text, hint)}${txLink(view)}${
    state.canRetry
      ? html`<div class="actions"><button class="primary" part="primary" type="button"
          @click=${() => ctl.retry()}>${t.retry}</button></div>`
      : nothing
  }`
}
