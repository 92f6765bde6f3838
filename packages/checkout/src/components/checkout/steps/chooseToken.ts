import { html, nothing } from 'lit'
import { format } from '../../../i18n/localize.js'
import { gaslessView } from '../../../loads.dialog.js'
import { errorBox, manualLink, type View } from '../checkout.parts.js'

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
      ${manualLink(view)}
    </div>
  `
}

export /**
 * The account would pay the network fee and has no coin for it (core decides: never a smart
 * account or a sponsored wallet). Where a token can be paid without fees, the notice says which;
 * `offered`: the review's "Pay without network fees" button is right below and says it itself.
 */
function gasNotice(view: View, offered: boolean) {
  const { state, t } = view
  if (!state.gasWarning) return nothing
  const coin = state.network?.chain.nativeCurrency.symbol ?? 'ETH'
  const free = state.tokens.filter((token) => token.gasless && token.sufficient)
  const note =
    free.length && !offered
      ? gaslessView(view.host)?.gaslessNote(
          t,
          free.map((token) => token.symbol),
          view.host.resolvedLocale,
        )
      : undefined
  return html`<p part="notice">${format(t.gasWarning, { coin })}${note ? ` ${note}` : nothing}</p>`
}
