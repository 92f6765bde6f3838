import { html, nothing } from 'lit'
import { format } from '../../../i18n/localize.js'
import { gasNotes, pathLinks } from '../../../paths/index.js'
import { errorBox, type View } from '../checkout.parts.js'

/** The connected wallet's stablecoins with their balances; too low a balance cannot be chosen. */
export function chooseToken(view: View) {
  const { ctl, state, t } = view
  return html`
    <h3>${t.chooseToken}</h3>
    ${errorBox(view)}
    ${gasNotice(view, false)}
    <ul class="list">
      ${state.tokens.map(
        (token) => html`<li>
          <button
            part="token"
            type="button"
            ?disabled=${!token.sufficient}
            ?data-autofocus=${token.symbol === state.selectedToken}
            aria-pressed=${token.symbol === state.selectedToken ? 'true' : 'false'}
            @click=${() => ctl.selectToken(token.symbol)}
          >
            <strong class="grow">${token.symbol}</strong>
            <small>
              ${token.sufficient ? format(t.balance, { balance: token.formattedBalance ?? '–' }) : t.tooLow}
            </small>
          </button>
        </li>`,
      )}
    </ul>
    <div class="actions">
      <button class="link" type="button" @click=${() => ctl.disconnect()}>
        ${t.changeWallet}
      </button>
      ${pathLinks(view)}
    </div>
  `
}

/**
 * The account would pay the network fee and has no coin for it (core decides: never a smart
 * account or a sponsored wallet). Where a path pays without that fee, the notice says so (a
 * token payable without fees); `shown`: on the review, whose offered paths' buttons say it
 * themselves.
 */
export function gasNotice(view: View, shown: boolean) {
  const { state, t } = view
  if (!state.gasWarning) return nothing
  const coin = state.network?.chain.nativeCurrency.symbol ?? 'ETH'
  return html`<p part="notice">${format(t.gasWarning, { coin })}${gasNotes(view, shown)}</p>`
}
