import { html, nothing } from 'lit'
import { spinner, type View } from '../checkout.parts.js'

// The service refuses this page's token: what is known, never "expired". A rare step: its view
// loads with the manual payment's (loads.dialog.ts), as core's recovery path loads its own chunk.
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
