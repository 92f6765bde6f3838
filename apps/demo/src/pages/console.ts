import type { PaymentSession } from '@paysession/server'
import { formatPrice, productById } from '../catalog/products.js'
import type { Order } from '../server/orders.js'
import type { WebhookLogEntry } from '../server/webhookLog.js'
import { html, type SafeHtml, short } from './html.js'
import { layout } from './layout.js'

export type ConsoleData = {
  sessions: PaymentSession[]
  selected: PaymentSession | undefined
  orders: (id: string) => Order | undefined
  /** Per row: OTW, customer, treasury; per column: token symbol. */
  balances: { label: string; address: string; values: Record<string, string> }[]
  tokens: string[]
  webhooks: WebhookLogEntry[]
  facts: { apiUrl: string; rpcUrl: string; webhookUrl: string }
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
  <tbody>${data.sessions.map(
    (
      s,
    ) => html`<tr class="${s.paymentSessionId === data.selected?.paymentSessionId ? 'is-selected' : ''}">
    <td><a href="/console?session=${s.paymentSessionId}" title="${s.paymentSessionId}"><strong>${itemName(data, s.paymentSessionId)}</strong><code>${s.paymentSessionId}</code><small class="muted">${time(s.createdAt)}</small></a></td>
    <td class="num">${s.amount && s.currency ? formatPrice(s.amount, s.currency) : '—'}</td>
    <td>${badge(s.status)}</td>
  </tr>`,
  )}</tbody>
</table>`
}

export function detailFragment(data: ConsoleData): SafeHtml {
  const s = data.selected
  if (!s) return html``
  const captures = s.captures ?? []
  return html`<dl class="facts facts-row">
  <div><dt>Status</dt><dd data-testid="session-status">${badge(s.status)}</dd></div>
  <div><dt>Amount</dt><dd>${s.amount ?? '—'} ${s.currency ?? ''}</dd></div>
  <div><dt>Token</dt><dd>${s.tokenSymbol ?? '—'}</dd></div>
  <div><dt>Captured</dt><dd>${s.capturedAmount ?? '0.00'}</dd></div>
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
    : html`<table class="table captures">
  <thead><tr><th>Capture</th><th class="num">Amount</th><th class="num">Refund</th><th>Status</th><th>Tx hashes</th></tr></thead>
  <tbody>${captures.map(
    (c) => html`<tr>
    <td><strong>${c.finalCapture ? 'Final' : 'Partial'}</strong><br><code class="muted" title="${c.captureId}">${short(c.captureId, 8, 4)}</code></td>
    <td class="num">${c.captureAmount}</td>
    <td class="num">${c.refundAmount}</td>
    <td>${badge(c.status)}</td>
    <td class="txs"><span>${hash(c.captureTransferTransactionHash)}</span>${
      c.finalCapture
        ? html`<span>${hash(c.refundTransferTransactionHash)} <small>refund</small></span>`
        : ''
    }</td>
  </tr>`,
  )}</tbody>
</table>`
}
<h3>On-chain balances</h3>
<table class="table balances">
  <thead><tr><th>Account</th>${data.tokens.map((t) => html`<th class="num">${t}</th>`)}</tr></thead>
  <tbody>${data.balances.map(
    (b) =>
      html`<tr><td>${b.label} ${hash(b.address)}</td>${data.tokens.map(
        (t) => html`<td class="num">${b.values[t] ?? '—'}</td>`,
      )}</tr>`,
  )}</tbody>
</table>`
}

export function webhooksFragment(data: ConsoleData): SafeHtml {
  if (data.webhooks.length === 0) {
    return html`<p class="empty">No webhooks received yet. The sandbox posts one to <code>${data.facts.webhookUrl}</code> whenever a session changes status.</p>`
  }
  return html`<table class="table">
  <thead><tr><th>Received</th><th>Event</th><th>Session</th><th>Status</th><th>Verification</th><th>Answer</th><th>Confirmed with API</th></tr></thead>
  <tbody>${data.webhooks.map(
    (w) => html`<tr class="webhook-${w.outcome}">
    <td>${time(w.receivedAt)}</td>
    <td><code>${w.id ?? '—'}</code></td>
    <td>${w.paymentSessionId ? html`<a href="/console?session=${w.paymentSessionId}"><code>${short(w.paymentSessionId, 9, 4)}</code></a>` : '—'}</td>
    <td>${w.status ? badge(w.status) : '—'}</td>
    <td>${
      w.outcome === 'rejected'
        ? html`<span class="verify verify-bad">✕ Rejected: ${w.reason}</span>`
        : w.verified
          ? html`<span class="verify verify-ok">✓ Signature verified${w.outcome === 'duplicate' ? ' (duplicate)' : ''}</span>`
          : html`<span class="verify">Unsigned</span>`
    }</td>
    <td><code>${w.httpStatus}</code></td>
    <td>${w.confirmedStatus ? badge(w.confirmedStatus) : '—'}</td>
  </tr>`,
  )}</tbody>
</table>`
}

export function consolePage(
  data: ConsoleData,
  flash: { notice?: string | null; error?: string | null },
): string {
  const s = data.selected
  const capturable = s?.status === 'FUNDED'
  return layout({
    title: 'Merchant console',
    active: 'console',
    head: html`<script type="module" src="/assets/console.js"></script>`,
    body: html`
<div class="page-head">
  <h1>Merchant console</h1>
  <p class="muted">Sandbox API <code>${data.facts.apiUrl}</code> · chain <code>${data.facts.rpcUrl}</code> · webhooks to <code>${data.facts.webhookUrl}</code></p>
</div>
${flash.notice ? html`<p class="alert alert-success" role="status">${flash.notice}</p>` : ''}
${flash.error ? html`<p class="alert alert-error" role="alert">${flash.error}</p>` : ''}
<div class="console-grid">
  <section class="card" aria-labelledby="sessions-title">
    <h2 id="sessions-title">Sessions</h2>
    <div data-live="sessions">${sessionsFragment(data)}</div>
  </section>
  <section class="card detail" aria-labelledby="detail-title" data-session="${s?.paymentSessionId ?? ''}">
    ${
      s
        ? html`<h2 id="detail-title">${itemName(data, s.paymentSessionId)} <code>${s.paymentSessionId}</code></h2>
    <form method="post" action="/console/sessions/${s.paymentSessionId}/captures" class="capture-form">
      <fieldset ${capturable ? '' : html`disabled`}>
        <label for="capture-amount">Capture amount</label>
        <div class="capture-row">
          <input id="capture-amount" name="amount" inputmode="decimal" autocomplete="off" pattern="[0-9]+(\\.[0-9]+)?" value="${s.capturableAmount ?? ''}" required>
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
