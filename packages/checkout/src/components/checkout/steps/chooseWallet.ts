import { html, nothing } from 'lit'
import { lazyViews } from '../../../loads.dialog.js'
import { pathLinks } from '../../../paths/index.js'
import { errorBox, usable, type View } from '../checkout.parts.js'

/** The wallets this browser offers; without one, links to a wallet app and the manual payment. */
export function chooseWallet(view: View) {
  const { ctl, t } = view
  const wallets = usable(view.state)
  return html`
    <h3>${t.chooseWallet}</h3>
    ${errorBox(view)}
    ${
      wallets.length
        ? html`<ul class="list">
          ${wallets.map(
            (wallet, i) => html`<li>
              <button
                part="wallet"
                type="button"
                ?data-autofocus=${i === 0}
                @click=${() => ctl.connect(wallet.id)}
              >
                ${wallet.icon ? html`<img src=${wallet.icon} alt="" />` : nothing}
                <span class="grow">${wallet.name}</span>
              </button>
            </li>`,
          )}
        </ul>`
        : html`<p part="notice">${t.noWallet}</p>${lazyViews(view.host)?.noWallet(view) ?? nothing}`
    }
    <div class="actions">${pathLinks(view, !wallets.length)}</div>
  `
}
