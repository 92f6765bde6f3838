import { html } from 'lit'
import { plural } from '../../../i18n/plural.js'
import { spinner, type View } from '../checkout.parts.js'

// Waiting for the service without a hash, because a prompt from before a reload (or another tab)
// may still be answered: say so, and until when. A rare step: its view loads with the manual
// payment's (loads.dialog.ts), as core's recovery path loads its own chunk.
export function promptElsewhere(view: View) {
  const { host, ctl, t } = view
  const seconds = ctl.countdown()
  return html`<p part="notice">${t.promptElsewhere}</p>
    ${spinner(t.waitingForPayment)}
    <p class="center muted">${plural(t.payAgainIn, seconds, host.resolvedLocale)}</p>`
}
