import { html, nothing } from 'lit'
import { plural } from '../../i18n/plural.js'
import { spinner, type View } from './checkout.parts.js'

// The views of two steps off the usual payment, loaded with the manual payment's view (the
// dialog shows the spinner meanwhile): a prompt still open from before a reload, and a session
// token the service refuses. Both follow core's recovery paths, which load their own chunk too.

// A prompt from before a reload (or another tab) may still be answered: say so, and until when.
export function promptElsewhere(view: View, retryAt: number) {
  const { host, t } = view
  const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000))
  return html`<p part="notice">${t.promptElsewhere}</p>
    ${spinner(t.waitingForPayment)}
    <p class="center muted">${plural(t.payAgainIn, seconds, host.resolvedLocale)}</p>`
}

// The service refuses this page's token: what is known, never "expired".
export function untracked(view: View) {
  const { ctl, host, state, t } = view
  // Trying again only helps when the page can hand a fresh token.
  const retry = state.canRetry && !!host.tokenProvider
  return html`
    <h3>${t.untrackedTitle}</h3>
    <p part="notice">${t.untrackedText}</p>
    ${state.session ? spinner(t.untrackedWatching) : nothing}
    <div class="actions">
      ${
        retry
          ? html`<button class="primary" part="primary" type="button" data-autofocus
            @click=${() => ctl.retry()}>${t.retry}</button>`
          : nothing
      }
      <button type="button" ?data-autofocus=${!retry} @click=${() => host.close()}>${t.close}</button>
    </div>
  `
}
