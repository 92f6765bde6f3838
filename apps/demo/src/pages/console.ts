import type { WebhookBacklog } from '@paysession/sandbox'
import type { PaymentSession } from '@paysession/server'
import { formatPrice, groupDigits, sumDecimals } from '../catalog/money.js'
import { productById } from '../catalog/products.js'
import type { Order } from '../server/orders.js'
import type { WebhookLogEntry } from '../server/webhookLog.js'
import { html, type SafeHtml, short } from './html.js'
import { layout } from './layout.js'

/** One of the shop's own orders, with its session as the service reports it now (or why not). */
export type ConsoleRow = {
  order: Order
  session: PaymentSession | undefined
  unavailable?: string | undefined
}

export type ConsoleData = {
  sessions: ConsoleRow[]
  selected: PaymentSession | undefined
  /** The session picked (even when it could not be read). */
  selectedId?: string | undefined
  /** Why the selected session could not be read, when it could not. */
  unavailable?: string | undefined
  orders: (id: string) => Order | undefined
  /** Per row: OTW, customer, treasury; per column: token symbol. */
  balances: { label: string; address: string; values: Record<string, string> }[]
  tokens: string[]
  webhooks: WebhookLogEntry[]
  /** What the sandbox still has to deliver, when known. */
  backlog?: WebhookBacklog | undefined
  facts: { apiUrl: string; rpcUrl: string; webhookUrl: string; forwardUrl?: string | undefined }
}

const time = (iso: string | undefined) =>
  iso ? new Date(iso).toLocaleTimeString('en-GB', { hour12: false }) : '—'

const badge = (status: string) =>
  html`<span class="badge badge-${status.toLowerCase()}">${status}</span>`

const hash = (value: string | null | undefined) =>
  value
    ? html`<code title="${value}">${short(value, 8, 6)}</code>`
    : html`<span class="muted">—</span>`

function itemName(data: ConsoleData, id: string) {
  return productById(data.orders(id)?.productId)?.name ?? 'Session'
}

export function sessionsFragment(data: ConsoleData): SafeHtml {
  if (data.sessions.length === 0) {
    return html`<p class="empty">No sessions yet. <a href="/">Buy something in the shop</a> to create one.</p>`
  }
  return html`<table class="table sessions">
  <thead><tr><th>Session</th><th class="num">Amount</th><th>Status</th></tr></thead>
  <tbody>${data.sessions.map(({ order, session, unavailable }) => {
    const id = order.paymentSessionId
    const amount = session?.amount ?? order.amount
    const currency = session?.currency ?? order.currency
    return html`<tr class="${id === data.selected?.paymentSessionId ? 'is-selected' : ''}">
    <td><a href="/console?session=${id}" title="${id}"><strong>${itemName(data, id)}</strong><code>${id}</code><small class="muted">${time(session?.createdAt ?? order.createdAt)}</small></a></td>
    <td class="num">${amount && currency ? formatPrice(amount, currency) : '—'}</td>
    <td>${session ? badge(session.status) : html`<span class="badge" title="${unavailable ?? ''}">unknown</span>`}</td>
  </tr>`
  })}</tbody>
</table>`
}

export function detailFragment(data: ConsoleData): SafeHtml {
  const s = data.selected
  if (!s)
    return data.unavailable
      ? html`<p class="alert alert-warn" role="status" data-testid="session-unavailable">The session's status is unknown here. ${data.unavailable}</p>`
      : html``
  const captures = s.captures ?? []
  return html`<dl class="facts facts-row">
  <div><dt>Status</dt><dd data-testid="session-status">${badge(s.status)}</dd></div>
  <div><dt>Amount</dt><dd>${s.amount ? groupDigits(s.amount) : '—'} ${s.currency ?? ''}</dd></div>
  <div><dt>Token</dt><dd>${s.tokenSymbol ?? '—'}</dd></div>
  <div><dt>Captured</dt><dd>${groupDigits(s.capturedAmount ?? '0.00')}</dd></div>
  <div><dt>Capturable</dt><dd data-testid="capturable">${s.capturableAmount ?? '0.00'}</dd></div>
</dl>
<dl class="facts facts-row">
  <div><dt>One-time wallet</dt><dd>${hash(s.oneTimeWalletAddress)}</dd></div>
  <div><dt>Customer</dt><dd>${hash(s.userAddress)}</dd></div>
  <div><dt>Funding tx</dt><dd>${hash(s.fundingTransactionHash)}</dd></div>
</dl>
<h3>Captures</h3>
${
  captures.length === 0
    ? html`<p class="empty">No captures yet.</p>`
    : html`<table class="table captures stack">
  <thead><tr><th>Capture</th><th class="num">Amount</th><th class="num">Refund</th><th>Status</th><th>Tx hashes</th></tr></thead>
  <tbody>${captures.map(
    (c) => html`<tr>
    <th scope="row"><strong>${c.finalCapture ? 'Final' : 'Partial'}</strong> <code class="muted" title="${c.captureId}">${short(c.captureId, 8, 4)}</code></th>
    <td class="num" data-label="Amount">${groupDigits(c.captureAmount)}</td>
    <td class="num" data-label="Refund">${groupDigits(c.refundAmount)}</td>
    <td data-label="Status">${badge(c.status)}</td>
    <td class="txs" data-label="Tx hashes"><span>${hash(c.captureTransferTransactionHash)}</span>${
      c.finalCapture
        ? html`<span>${hash(c.refundTransferTransactionHash)} <small>refund</small></span>`
        : ''
    }</td>
  </tr>`,
  )}</tbody>
</table>`
}
<h3>On-chain balances</h3>
<table class="table balances stack">
  <thead><tr><th>Account</th>${data.tokens.map((t) => html`<th class="num">${t}</th>`)}</tr></thead>
  <tbody>${data.balances.map(
    (b) =>
      html`<tr><th scope="row">${b.label} ${hash(b.address)}</th>${data.tokens.map(
        (t) =>
          html`<td class="num" data-label="${t}">${b.values[t] ? groupDigits(b.values[t]) : '—'}</td>`,
      )}</tr>`,
  )}</tbody>
</table>`
}

/** The sandbox's undelivered updates: retried, each session's in order, until delivered. */
function backlogLine(backlog: WebhookBacklog | undefined): SafeHtml {
  if (!backlog) return html``
  const failed = backlog.failed
    ? html` ${backlog.failed} given up (<code>paysession-sandbox webhooks retry</code> sends them again).`
    : ''
  if (!backlog.waiting)
    return html`<p class="hint" data-testid="webhook-backlog">Webhook backlog: none, every update was delivered.${failed}</p>`
  return html`<p class="hint" data-testid="webhook-backlog">Webhook backlog: ${backlog.waiting} ${backlog.waiting === 1 ? 'update' : 'updates'} of ${backlog.sessions} ${backlog.sessions === 1 ? 'session' : 'sessions'} waiting since ${time(backlog.oldestAt ?? undefined)}, retried in order per session; next attempt ${time(backlog.nextAttemptAt ?? undefined)}${backlog.lastError ? html`, last error <code>${backlog.lastError}</code>` : ''}.${failed}</p>`
}

export function webhooksFragment(data: ConsoleData): SafeHtml {
  const backlog = backlogLine(data.backlog)
  if (data.webhooks.length === 0) {
    return html`${backlog}<p class="empty">No webhooks received yet. The sandbox posts one to <code>${data.facts.webhookUrl}</code> whenever a session changes status.</p>`
  }
  const forwarding = Boolean(data.facts.forwardUrl)
  return html`${backlog}${forwarding ? html`<p class="hint">Each verified update is also forwarded, byte for byte with its signature, to <code>${data.facts.forwardUrl}</code>.</p>` : ''}<table class="table webhooks stack">
  <thead><tr><th>Received</th><th>Event</th><th>Session</th><th>Status</th><th>Verification</th><th>Answer</th><th>Confirmed with API</th>${forwarding ? html`<th>Forwarded</th>` : ''}</tr></thead>
  <tbody>${data.webhooks.map(
    (w) => html`<tr class="webhook-${w.outcome}">
    <th scope="row"><time datetime="${w.receivedAt}">${time(w.receivedAt)}</time></th>
    <td data-label="Event"><code>${w.id ?? '—'}</code></td>
    <td data-label="Session">${w.paymentSessionId ? html`<a href="/console?session=${w.paymentSessionId}"><code>${short(w.paymentSessionId, 9, 4)}</code></a>` : '—'}</td>
    <td data-label="Status">${w.status ? badge(w.status) : '—'}</td>
    <td data-label="Verification">${
      w.outcome === 'rejected'
        ? html`<span class="verify verify-bad">✕ Rejected: ${w.reason}</span>`
        : w.verified
          ? html`<span class="verify verify-ok">✓ Signature verified${w.outcome === 'duplicate' ? ' (duplicate)' : ''}</span>`
          : html`<span class="verify">Unsigned</span>`
    }</td>
    <td data-label="Answer"><code>${w.httpStatus}</code></td>
    <td data-label="Confirmed with API">${w.confirmedStatus ? badge(w.confirmedStatus) : '—'}</td>${
      forwarding
        ? html`<td data-label="Forwarded">${w.forwarded === undefined ? '—' : w.forwarded === 'failed' ? html`<span class="verify verify-bad">failed</span>` : html`<code>${w.forwarded}</code>`}</td>`
        : ''
    }
  </tr>`,
  )}</tbody>
</table>`
}

const terminal = new Set(['SUCCEEDED', 'CANCELED', 'ERROR'])

/** Replaces the capture form once the session can never be captured again (live-refreshed). */
export function closedFragment(data: ConsoleData): SafeHtml {
  const s = data.selected
  if (!s || !terminal.has(s.status)) return html``
  const refunded = sumDecimals((s.captures ?? []).map((c) => c.refundAmount ?? '0'))
  const text =
    s.status === 'SUCCEEDED'
      ? html`Settled: <strong>${groupDigits(s.capturedAmount ?? '0.00')} ${s.tokenSymbol ?? ''}</strong> captured, <strong>${groupDigits(refunded)} ${s.tokenSymbol ?? ''}</strong> refunded to the customer. Nothing is left to capture.`
      : s.status === 'CANCELED'
        ? html`Canceled: the session was not paid in time. There is nothing to capture.`
        : html`The session is in <code>ERROR</code>: a capture or refund transfer failed. Nothing more can be captured here.`
  return html`<p class="capture-closed alert ${s.status === 'SUCCEEDED' ? 'alert-success' : 'alert-warn'}">${text}</p>`
}

export type ConsoleFlash = {
  notice?: string | null
  error?: string | null
  /** The capture a notice is about: the console updates the notice when it completes. */
  capture?: string | null
  /** What the merchant typed, kept after a refused capture. */
  amount?: string | null
  /** The per-process token every console action must carry. */
  csrfToken: string
}

export function consolePage(data: ConsoleData, flash: ConsoleFlash): string {
  const s = data.selected
  const capturable = s?.status === 'FUNDED'
  const closed = closedFragment(data)
  const typed = flash.amount ?? undefined
  return layout({
    title: 'Merchant console',
    active: 'console',
    head: html`<script type="module" src="/assets/console.js"></script>`,
    body: html`
<div class="page-head">
  <h1>Merchant console</h1>
  <p class="muted">Sandbox API <code>${data.facts.apiUrl}</code> · chain <code>${data.facts.rpcUrl}</code> · webhooks to <code>${data.facts.webhookUrl}</code></p>
</div>
${flash.notice ? html`<p class="alert alert-success flash-notice" role="status" ${flash.capture ? html`data-capture="${flash.capture}"` : ''}>${flash.notice}</p>` : ''}
${flash.error ? html`<p class="alert alert-error" role="alert">${flash.error}</p>` : ''}
<div class="console-grid">
  <section class="card" aria-labelledby="sessions-title">
    <h2 id="sessions-title">Sessions</h2>
    <div data-live="sessions">${sessionsFragment(data)}</div>
  </section>
  <section class="card detail" aria-labelledby="detail-title" data-session="${s?.paymentSessionId ?? data.selectedId ?? ''}">
    ${
      !s && data.unavailable
        ? html`<h2 id="detail-title">Session</h2><div data-live="detail">${detailFragment(data)}</div>`
        : s
          ? html`<h2 id="detail-title">${itemName(data, s.paymentSessionId)} <code>${s.paymentSessionId}</code></h2>
    <div data-live="closed">${closed}</div>
    <form method="post" action="/console/sessions/${s.paymentSessionId}/captures" class="capture-form" ${closed.value ? html`hidden` : ''}>
      <input type="hidden" name="csrf" value="${flash.csrfToken}">
      <fieldset ${capturable ? '' : html`disabled`}>
        <label for="capture-amount">Capture amount</label>
        <div class="capture-row">
          <input id="capture-amount" name="amount" inputmode="decimal" autocomplete="off" pattern="[0-9]+(\\.[0-9]+)?" value="${typed ?? s.capturableAmount ?? ''}" ${typed === undefined ? '' : html`data-typed`} required>
          <button class="button button-secondary" type="submit" name="final" value="false">Capture partial</button>
          <button class="button" type="submit" name="final" value="true">Final capture</button>
        </div>
        <p class="hint">A final capture takes this amount and refunds the rest to the customer. Captures are possible while the session is <code>FUNDED</code>.</p>
      </fieldset>
    </form>
    <div data-live="detail">${detailFragment(data)}</div>`
          : html`<h2 id="detail-title">Session</h2><p class="empty">Select a session.</p>`
    }
  </section>
</div>
<section class="card" aria-labelledby="webhooks-title">
  <h2 id="webhooks-title">Webhooks received</h2>
  <div data-live="webhooks">${webhooksFragment(data)}</div>
</section>`,
  })
}
