import { html, nothing } from 'lit'
import { reviewButtons } from '../../../paths/index.js'
import {
  copyButton,
  errorBox,
  money,
  networkName,
  short,
  spinner,
  type View,
} from '../checkout.parts.js'
import { chooseToken, gasNotice } from './chooseToken.js'

const networkLabel = (view: View) => {
  const icon = view.state.network?.icon
  return html`${icon ? html`<img class="icon" src=${icon} alt="" />` : nothing}${networkName(view)}`
}

/** `0x91A1 2B61 30c0 …`: the whole address in groups of four, read without losing one's place. */
const grouped = (address: string) =>
  /^0x[0-9a-fA-F]{40}$/.test(address) ? `0x ${address.slice(2).match(/.{4}/g)!.join(' ')}` : address

// The icon of a value that is also a control: change it.
const chevron = html`<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 6l4 4 4-4" /></svg>`

/** What is about to be paid, to whom, from which account; the pay button(s). */
export function review(view: View) {
  const { ctl, state, t } = view
  if (ctl.changingToken) return chooseToken(view)
  // Pay, and the other paths the state offers (paths/): one of them first when it leads.
  const buttons = reviewButtons(view)
  if (!buttons) return spinner(t.loading)
  const to = state.session?.oneTimeWalletAddress ?? ''
  // Values line up on the right; one that can be changed or copied is itself the button.
  return html`
    <h3>${t.review}</h3>
    ${errorBox(view)}
    ${gasNotice(view, true)}
    <dl>
      <dt>${t.amount}</dt>
      <dd><strong>${money(view)}</strong></dd>
      <dt>${t.token}</dt>
      <dd>${
        state.tokens.length > 1
          ? html`<button class="value" type="button" aria-label=${`${t.change}: ${state.selectedToken}`}
              @click=${() => ctl.changeToken()}>${state.selectedToken}${chevron}</button>`
          : state.selectedToken
      }</dd>
      <dt>${t.network}</dt>
      <dd>${networkLabel(view)}</dd>
      <dt class="address">${t.to}</dt>
      <dd class="address"><code part="address" title=${to}>${grouped(to)}</code>${copyButton(view, to)}</dd>
      ${state.account ? html`<dt>${t.from}</dt><dd><code>${short(state.account)}</code></dd>` : nothing}
    </dl>
    <div class="actions">${buttons}</div>
  `
}
