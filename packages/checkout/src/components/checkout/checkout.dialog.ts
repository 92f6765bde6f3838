import type { CheckoutState } from '@paysession/core'
import { html, nothing, type TemplateResult } from 'lit'
import { CheckoutController, type CheckoutHost } from '../../controllers/checkout.controller.js'
import { format, formatMoney } from '../../i18n/localize.js'
import { dialogStyles } from './checkout.dialog.styles.js'
import {
  type Controller,
  copyButton,
  errorBox,
  errorText,
  networkName,
  spinner,
  type T,
  tokenAmount,
  usable,
  type View,
} from './checkout.parts.js'

// The code only the dialog needs: core's checkout (wagmi, viem, query-core), the step views,
// and their styles (every language's words load with the first file).
export { CheckoutController, dialogStyles }

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

let manualView: typeof import('./checkout.manual.js') | undefined
let gaslessView: typeof import('../../gasless/gasless.js') | undefined
/**
 * The manual payment's and the no-wallet views (QR codes, wallet links): loaded on first use,
 * then re-rendered. Returns them once loaded.
 */
function loadManual(host: CheckoutHost) {
  if (!manualView) {
    void import('./checkout.manual.js').then((view) => {
      manualView = view
      host.requestUpdate()
    })
    return undefined
  }
  // The view's styles join each element's shadow root the first time that element shows it.
  host.addStyles(manualView.manualStyles)
  return manualView
}
/** The gasless button's code: loaded only when the merchant set `relay-url` and a token allows it. */
function loadGasless(host: CheckoutHost) {
  if (!gaslessView)
    void import('../../gasless/gasless.js').then((view) => {
      gaslessView = view
      host.requestUpdate()
    })
  return gaslessView
}

/** The sentence the aria-live region announces for a state. */
export function announce(state: CheckoutState | undefined, t: T, ctl: Controller): string {
  if (!state) return t.loading
  const titles: Partial<Record<CheckoutState['step'], string>> = {
    loading: t.loading,
    chooseWallet: t.chooseWallet,
    connecting: t.connecting,
    chooseToken: t.chooseToken,
    review: t.review,
    confirmInWallet: t.confirmInWallet,
    waitingForWallet: t.waitingForWallet,
    submitted: t.confirming,
    confirming: t.confirming,
    // Without a hash nothing says it was sent: an open prompt elsewhere, or funds seen at the address.
    waitingForService: state.hash
      ? t.waitingForService
      : state.retryAt
        ? t.promptElsewhere
        : t.waitingForPayment,
    paid: t.paidTitle,
    completed: t.paidTitle,
    expired: t.expiredTitle,
    failed: failedTitle(state, t),
    manual: t.manualTitle,
    untracked: t.untrackedTitle,
  }
  // Untracked says it all; its error (a refused token) is for the page, not the customer.
  const error = ctl.error && state.step !== 'untracked' ? ` ${errorText(ctl.error, t)}` : ''
  return (titles[state.step] ?? '') + error
}

/** The dialog body for the controller's current state. */
export function renderStep(host: CheckoutHost, ctl: Controller, t: T): TemplateResult {
  const state = ctl.state
  if (!state) return spinner(t.loading)
  const view = { host, ctl, state, t }
  const body = steps[state.step](view)
  return html`${body}<p role="status" aria-live="polite" class="sr-only">${announce(state, t, ctl)}</p>`
}

// "Payment failed" only when a payment was attempted; not when nothing could even start.
const unreachable = ['CHAIN_UNAVAILABLE', 'API_UNAVAILABLE', 'TIMEOUT']
const attempted = ['TRANSACTION_FAILED', 'TRANSFER_MISMATCH', 'SESSION_FAILED', 'WALLET_ERROR']
function failedTitle(state: CheckoutState, t: T) {
  const code = state.error?.code ?? ''
  if (unreachable.includes(code)) return t.unreachableTitle
  return state.hash || attempted.includes(code) ? t.failedTitle : t.unavailable
}

const networkLabel = (view: View) => {
  const icon = view.state.network?.icon
  return html`${icon ? html`<img class="icon" src=${icon} alt="" />` : nothing}${networkName(view)}`
}

const manualLink = ({ ctl, t }: View) =>
  html`<button class="link" type="button" @click=${() => ctl.payManually()}>
    ${t.payManually}
  </button>`

const money = ({ host, state }: View) =>
  formatMoney(
    state.amount ?? state.session?.amount ?? '',
    state.session?.currency,
    host.resolvedLocale,
  )

/** `0x91A1 2B61 30c0 …`: the whole address in groups of four, read without losing one's place. */
const grouped = (address: string) =>
  /^0x[0-9a-fA-F]{40}$/.test(address) ? `0x ${address.slice(2).match(/.{4}/g)!.join(' ')}` : address

// The icon of a value that is also a control: change it.
const chevron = html`<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 6l4 4 4-4" /></svg>`

function txLink({ state, t }: View) {
  if (!state.hash) return nothing
  if (state.explorerTxUrl)
    return html`<p class="center">
      <a href=${state.explorerTxUrl} target="_blank" rel="noopener noreferrer">${t.viewTransaction}</a>
    </p>`
  return html`<p class="center muted">${t.transaction} <code>${short(state.hash)}</code></p>`
}

function chooseWallet(view: View) {
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
        : html`<p part="notice">${t.noWallet}</p>${loadManual(view.host)?.noWallet(view) ?? nothing}`
    }
    <div class="actions">
      ${
        wallets.length
          ? manualLink(view)
          : html`<button class="primary" part="primary" type="button" data-autofocus
            @click=${() => ctl.payManually()}>${t.payManually}</button>`
      }
    </div>
  `
}

function chooseToken(view: View) {
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

/**
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
      ? loadGasless(view.host)?.gaslessNote(
          t,
          free.map((token) => token.symbol),
          view.host.resolvedLocale,
        )
      : undefined
  return html`<p part="notice">${format(t.gasWarning, { coin })}${note ? ` ${note}` : nothing}</p>`
}

function review(view: View) {
  const { ctl, state, t } = view
  if (ctl.changingToken) return chooseToken(view)
  const to = state.session?.oneTimeWalletAddress ?? ''
  const amount = tokenAmount(view, state.selectedToken)
  // Pay without network fees (lazy, with `relay-url`): first when the wallet has no gas.
  const gasless =
    state.gasless && loadGasless(view.host)
      ? loadGasless(view.host)!.gaslessButton(ctl, view.t)
      : nothing
  const first = gasless !== nothing && state.gasWarning
  // Values line up on the right; one that can be changed or copied is itself the button.
  return html`
    <h3>${t.review}</h3>
    ${errorBox(view)}
    ${gasNotice(view, gasless !== nothing)}
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
    <div class="actions">
      ${first ? gasless : nothing}
      <button class=${first ? '' : 'primary'} part="primary" type="button" ?data-autofocus=${!first}
        @click=${() => (state.canRetry ? ctl.retry() : ctl.pay())}>
        ${format(t.confirmPay, { amount })}
      </button>
      ${first ? nothing : gasless}
    </div>
  `
}

function done(view: View) {
  const { host, state, t } = view
  return html`
    <div class="center">
      <div class="success" aria-hidden="true">✓</div>
      <h3>${t.paidTitle}</h3>
      <p>${format(t.paidText, { amount: money(view) })}</p>
      ${state.session?.tokenSymbol ? html`<p class="muted">${tokenAmount(view, state.session.tokenSymbol)}</p>` : nothing}
    </div>
    ${txLink(view)}
    <div class="actions">
      <button class="primary" part="primary" type="button" data-autofocus @click=${() => host.close()}>
        ${t.done}
      </button>
    </div>
  `
}

function ended(view: View, title: string) {
  const { ctl, host, state, t } = view
  return html`
    <h3>${title}</h3>
    ${errorBox(view)}
    ${txLink(view)}
    <div class="actions">
      ${
        state.canRetry
          ? html`<button class="primary" part="primary" type="button" data-autofocus
            @click=${() => ctl.retry()}>${t.retry}</button>`
          : nothing
      }
      <button type="button" ?data-autofocus=${!state.canRetry} @click=${() => host.close()}>${t.close}</button>
    </div>
  `
}

const waiting = (view: View, text: string, hint?: string) => {
  const { ctl, state, t } = view
  return html`${errorBox(view)}${spinner(text, hint)}${txLink(view)}${
    state.canRetry
      ? html`<div class="actions"><button class="primary" part="primary" type="button"
          @click=${() => ctl.retry()}>${t.retry}</button></div>`
      : nothing
  }`
}

const steps: Record<CheckoutState['step'], (view: View) => TemplateResult> = {
  loading: (v) => spinner(v.t.loading),
  chooseWallet,
  // WalletConnect's pairing QR code while a phone has not scanned it yet.
  connecting: (v) =>
    (v.ctl.pairingUri && loadManual(v.host)?.pairing(v, v.ctl.pairingUri)) ||
    waiting(v, v.t.connecting, v.t.approveInWallet),
  chooseToken,
  review,
  confirmInWallet: (v) => waiting(v, v.t.confirmInWallet, v.t.confirmHint),
  waitingForWallet: (v) => waiting(v, v.t.waitingForWallet, v.t.waitingForWalletHint),
  submitted: (v) => waiting(v, v.t.confirming),
  confirming: (v) => waiting(v, v.t.confirming),
  // Without a hash (an open prompt elsewhere, or funds seen at the address) nothing says it was sent.
  // Both rare views (an open prompt elsewhere, a refused token) load with the manual payment's.
  waitingForService: (v) =>
    !v.state.hash && v.state.retryAt
      ? (loadManual(v.host)?.promptElsewhere(v, v.state.retryAt) ?? spinner(v.t.loading))
      : waiting(v, v.state.hash ? v.t.waitingForService : v.t.waitingForPayment),
  paid: done,
  completed: done,
  expired: (v) => ended(v, v.t.expiredTitle),
  failed: (v) => ended(v, failedTitle(v.state, v.t)),
  // Its view (address, EIP-681 QR, wallet deep links) loads when a customer first needs it; from
  // it, "Pay with a wallet instead" shows the wallet list again.
  manual: (v) =>
    v.ctl.pickingWallet ? chooseWallet(v) : (loadManual(v.host)?.manual(v) ?? spinner(v.t.loading)),
  untracked: (v) => loadManual(v.host)?.untracked(v) ?? spinner(v.t.loading),
}
