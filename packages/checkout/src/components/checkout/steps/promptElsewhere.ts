import { html } from 'lit'
import { plural } from '../../../i18n/plural.js'
import { spinner, type View } from '../checkout.parts.js'

// Waiting for the service without a hash, because a prompt from before a reload (or another tab)
// may still be answered: say so, and until when. A rare step: its view loads with the manual
// payment's (loads.dialog.ts), as core's recovery path loads its own chunk.
export function promptElsewhere(view: View, retryAt: number) {
  const { host, t } = view
  const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000))
  return html`<p part="notice">${t.promptElsewhere}</p>
    ${spinner(t.waitingForPayment)}
    <p class="center muted">${plural(t.payAgainIn, seconds, host.resolvedLocale)}</p>`
}
