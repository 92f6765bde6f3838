// The wallet's own UI: a badge (test customer picker, connection, Disconnect) and the approval
// dialog, in an open shadow root. All of it is one labelled region, so on a page it adds no second
// banner or contentinfo and leaves nothing outside a landmark; every control is at least 44 px on
// a phone. The CSS is a constructable stylesheet, so a page whose Content-Security-Policy has a
// strict `style-src 'self'` does not block it.
import type { Row } from './describe.js'

export type Prompt = { kind: 'connect' | 'send' | 'sign' | 'add-chain'; title: string; rows: Row[] }

export type WalletView = {
  /** Index into the options given to createWalletUi. */
  selected: number
  connected: boolean
  proposals: number
  prompt: Prompt | undefined
}

export type WalletUiOptions = {
  icon: string
  options: { label: string; address: string }[]
  onSelect(index: number): void
  onDisconnect(): void
  onApproveSafe(): void
  onApprove(): void
  onReject(): void
}

const css = `
  :host { all: initial; }
  * { box-sizing: border-box; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  .badge { position: fixed; left: 16px; bottom: 16px; z-index: 2147483000; display: flex; align-items: center; gap: 8px;
    max-width: calc(100vw - 32px); padding: 8px 10px; background: #fff; color: #1d2a26; border: 1px solid #d9dfdc;
    border-radius: 12px; box-shadow: 0 6px 24px #0f2a2214; }
  .badge img { flex: none; width: 22px; height: 22px; border-radius: 6px; }
  .badge strong { font-weight: 600; white-space: nowrap; }
  .badge select { flex: 0 1 auto; min-width: 0; min-height: 32px; text-overflow: ellipsis; border: 1px solid #d9dfdc;
    border-radius: 8px; padding: 3px 6px; background: #f7f8f7; color: inherit; }
  .dot { flex: none; width: 8px; height: 8px; border-radius: 50%; background: #b7bfbb; }
  .dot.on { background: #2f9e6e; }
  .link { flex: none; min-height: 32px; white-space: nowrap; background: none; border: 0; color: #2f5d50; cursor: pointer;
    padding: 0 4px; text-decoration: underline; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  /* In a page's slot ([data-sandbox-wallet-slot]) the badge sits in the flow and covers nothing. */
  :host([inline]) .badge { position: static; max-width: 100%; box-shadow: none; padding: 4px 8px; }
  /* On a phone the name gives way to the customer picker (it stays for screen readers), and every
     control is a 44 px tap target. */
  @media (max-width: 640px) {
    .badge { gap: 6px; padding: 6px 8px; }
    .badge .name { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .badge select, .link { min-height: 44px; }
    .link { min-width: 44px; }
  }
  dialog { width: min(380px, calc(100vw - 32px)); padding: 0; border: 0; border-radius: 16px; color: #1d2a26;
    background: #fff; box-shadow: 0 24px 64px #0f2a2240; }
  dialog::backdrop { background: #0f1f1a66; }
  .head { display: flex; align-items: center; gap: 10px; padding: 16px 18px; border-bottom: 1px solid #eef1ef; }
  .head img { width: 28px; height: 28px; border-radius: 8px; }
  .head small { display: block; color: #5f6b66; }
  h2 { margin: 0; font-size: 15px; font-weight: 650; }
  .body { padding: 14px 18px; }
  .origin { margin: 0 0 10px; color: #5f6b66; }
  dl { margin: 0; display: grid; gap: 8px; }
  dl div { display: grid; gap: 2px; }
  dt { color: #5f6b66; font-size: 12px; }
  dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; word-break: break-all;
    white-space: pre-wrap; }
  dd.big { font: 600 20px/1.3 system-ui, sans-serif; }
  .actions { display: flex; gap: 10px; padding: 14px 18px 18px; }
  .actions button { flex: 1; min-height: 44px; padding: 10px 12px; border-radius: 10px; font-weight: 600; cursor: pointer;
    border: 1px solid #cfd6d3; background: #fff; color: #1d2a26; }
  .actions button.approve { background: #2f5d50; border-color: #2f5d50; color: #fff; }
  button:focus-visible, select:focus-visible { outline: 3px solid #f4c542; outline-offset: 2px; }
  @media (prefers-color-scheme: dark) {
    .badge, dialog, .actions button { background: #1b2421; color: #e6efe9; border-color: #3a4a44; }
    .badge select { background: #24302c; border-color: #3a4a44; }
    .head, .head small, .origin, dt { color: #a8b8b1; border-color: #2c3834; }
    .link { color: #9fd3bf; }
    .actions button.approve { background: #7cc4a8; border-color: #7cc4a8; color: #0d1a15; }
  }
`

/** Builds the UI's element (`<sandbox-wallet-ui>`, not yet in the page) and its render function. */
export function createWalletUi(options: WalletUiOptions) {
  const host = document.createElement('sandbox-wallet-ui')
  const root = host.attachShadow({ mode: 'open' })
  root.innerHTML = `
  <section aria-label="Sandbox Wallet">
    <div class="badge" part="badge">
      <img alt="" src="${options.icon}">
      <span class="name"><strong>Sandbox Wallet</strong></span>
      <span class="dot" aria-hidden="true"></span><span class="sr status"></span>
      <select aria-label="Test customer"></select>
      <button class="link disconnect" type="button" hidden>Disconnect</button>
      <button class="link safe" type="button" hidden>Approve as second owner</button>
    </div>
    <dialog aria-labelledby="sw-title" aria-describedby="sw-origin">
      <div class="head"><img alt="" src="${options.icon}"><div><h2 id="sw-title"></h2><small>Sandbox Wallet · test customer</small></div></div>
      <div class="body"><p class="origin" id="sw-origin"></p><dl></dl></div>
      <div class="actions"><button type="button" class="reject">Reject</button><button type="button" class="approve">Approve</button></div>
    </dialog>
  </section>`
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  root.adoptedStyleSheets = [sheet]

  const $ = <T extends Element>(selector: string) => root.querySelector(selector) as T
  const select = $<HTMLSelectElement>('select')
  const dialog = $<HTMLDialogElement>('dialog')
  const safe = $<HTMLButtonElement>('.safe')
  const disconnect = $<HTMLButtonElement>('.disconnect')
  const approve = $<HTMLButtonElement>('.approve')
  select.replaceChildren(
    ...options.options.map(({ label, address }, i) => {
      const option = document.createElement('option')
      option.value = String(i)
      option.textContent = `${label} · ${address.slice(0, 6)}…${address.slice(-4)}`
      return option
    }),
  )
  select.addEventListener('change', () => options.onSelect(Number(select.value)))
  disconnect.addEventListener('click', () => options.onDisconnect())
  safe.addEventListener('click', () => options.onApproveSafe())
  approve.addEventListener('click', () => options.onApprove())
  $('.reject').addEventListener('click', () => options.onReject())
  // Escape closes the dialog: that is a rejection, as in a wallet's popup.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    options.onReject()
  })

  function render(view: WalletView) {
    select.value = String(view.selected)
    safe.hidden = view.proposals === 0
    safe.textContent = `Approve as second owner (${view.proposals})`
    $('.dot').classList.toggle('on', view.connected)
    $('.status').textContent = view.connected ? 'Connected to this site' : 'Not connected'
    disconnect.hidden = !view.connected
    const prompt = view.prompt
    if (!prompt) {
      if (dialog.open) dialog.close()
      return
    }
    dialog.dataset.kind = prompt.kind
    $('#sw-title').textContent = prompt.title
    $('.origin').textContent = `${location.host} asks`
    $('dl').replaceChildren(
      ...prompt.rows.map(([label, value], i) => {
        const div = document.createElement('div')
        const dt = document.createElement('dt')
        const dd = document.createElement('dd')
        dt.textContent = label
        dd.textContent = value
        if (prompt.kind === 'send' && i === 0) dd.className = 'big'
        div.append(dt, dd)
        return div
      }),
    )
    approve.textContent = prompt.kind === 'connect' ? 'Connect' : 'Approve'
    // Opened last, the wallet's modal sits above any modal the page has open (the top layer).
    if (!dialog.open) {
      dialog.showModal()
      approve.focus()
    }
  }

  return { host, render }
}
