import type { PaymentSession } from '@paysession/server'
import { formatPrice, groupDigits, sumDecimals } from '../catalog/money.js'
import type { Product } from '../catalog/products.js'
import type { Order } from '../server/orders.js'
import { html, type SafeHtml, short } from './html.js'
import { illustration } from './illustration.js'
import { layout } from './layout.js'

const steps = [
  { status: 'CREATED', label: 'Order placed' },
  { status: 'PENDING', label: 'Transfer sent' },
  { status: 'FUNDED', label: 'Payment received' },
  { status: 'CAPTURING', label: 'Merchant capturing' },
  { status: 'SUCCEEDED', label: 'Complete' },
] as const

const headlines: Record<string, [string, string]> = {
  CREATED: ['Waiting for your payment', 'Finish the checkout to pay for this order.'],
  PENDING: ['Payment on its way', 'We see your wallet; the transfer is being confirmed on-chain.'],
  FUNDED: ['Payment received', 'Thank you! Your order is paid and being prepared.'],
  CAPTURING: ['Payment received', 'The merchant is settling your payment.'],
  SUCCEEDED: ['Order complete', 'Your payment is settled. Anything left over was refunded to you.'],
  CANCELED: ['Order canceled', 'This order was not paid within the payment window.'],
  ERROR: ['Something went wrong', 'The payment needs attention; the merchant has been told.'],
}

/** Status names a customer reads; the service's own name stays in data-status for scripts. */
const statusNames: Record<string, string> = {
  CREATED: 'Awaiting payment',
  PENDING: 'Payment on its way',
  FUNDED: 'Paid',
  CAPTURING: 'Paid, being settled',
  SUCCEEDED: 'Complete',
  CANCELED: 'Canceled',
  ERROR: 'Needs attention',
}

/** What was refunded to the customer, exactly, and in which token; undefined when nothing was. */
function refunded(session: PaymentSession): string | undefined {
  const total = sumDecimals((session.captures ?? []).map((c) => c.refundAmount ?? '0'))
  return /[1-9]/.test(total)
    ? `${groupDigits(total)} ${session.tokenSymbol ?? ''}`.trim()
    : undefined
}

/** The order's money: the total, and once a final capture refunded part of it, the refund. */
function moneyFacts(session: PaymentSession | undefined, order: Order | undefined): SafeHtml {
  const refund = session && refunded(session)
  const amount = session?.amount ?? order?.amount
  const currency = session?.currency ?? order?.currency
  return html`<div><dt>Total</dt><dd class="price">${amount && currency ? formatPrice(amount, currency) : '—'}${
    refund ? html` <span class="refund" data-testid="order-refund">${refund} refunded</span>` : ''
  }</dd></div>`
}

/** The live part of the order page: re-rendered by the server on every poll. */
export function orderStatusFragment(session: PaymentSession): SafeHtml {
  const [title, text] = headlines[session.status] ?? [session.status, '']
  const failed = session.status === 'CANCELED' || session.status === 'ERROR'
  const name = statusNames[session.status] ?? session.status
  // A completed partial capture returns the session to FUNDED: it has still been capturing.
  const rank = Math.max(
    steps.findIndex((s) => s.status === session.status),
    session.captures?.length ? 3 : -1,
  )
  return html`<div class="order-status ${failed ? 'is-failed' : ''} ${session.status === 'SUCCEEDED' ? 'is-complete' : ''}" data-status="${session.status}">
  <h2>${title}</h2>
  <p class="muted">${text}</p>
  ${
    failed
      ? ''
      : html`<ol class="timeline">${steps.map((s, i) => {
          const state =
            i < rank || session.status === 'SUCCEEDED' ? 'done' : i === rank ? 'current' : 'todo'
          return html`<li class="step step-${state}" ${state === 'current' ? html`aria-current="step"` : ''}><span class="dot" aria-hidden="true"></span><span class="step-label">${s.label}</span>${
            state === 'current' ? html`<span class="now">Now</span>` : ''
          }${state === 'done' ? html`<span class="visually-hidden"> (done)</span>` : ''}</li>`
        })}</ol>`
  }
  <dl class="facts">
    <div><dt>Status</dt><dd><span class="badge badge-${session.status.toLowerCase()}" data-testid="order-status" data-status="${session.status}">${name}</span></dd></div>
    ${refunded(session) ? html`<div><dt>Refunded</dt><dd>${refunded(session)}</dd></div>` : ''}
    ${session.tokenSymbol ? html`<div><dt>Paid in</dt><dd>${session.tokenSymbol}</dd></div>` : ''}
    ${session.userAddress ? html`<div><dt>From</dt><dd><code title="${session.userAddress}">${short(session.userAddress)}</code></dd></div>` : ''}
    ${session.fundingTransactionHash ? html`<div><dt>Transfer</dt><dd><code title="${session.fundingTransactionHash}">${short(session.fundingTransactionHash, 10, 6)}</code></dd></div>` : ''}
  </dl>
</div>`
}

/** The service could not tell this shop the payment's status: said, and nothing guessed. */
export function unavailableFragment(reason: string): SafeHtml {
  return html`<div class="order-status" data-status="">
  <h2>Payment status unavailable</h2>
  <p class="muted" data-testid="order-unavailable">We cannot check this order's payment right now. A payment you sent still reaches us: do not pay again. ${reason}</p>
</div>`
}

export function orderPage(options: {
  session: PaymentSession | undefined
  order?: Order | undefined
  /** Why the session could not be read, when `session` is undefined. */
  unavailable?: string | undefined
  product: Product | undefined
}): string {
  const { session, order, product } = options
  const id = session?.paymentSessionId ?? order?.paymentSessionId ?? ''
  return layout({
    title: 'Your order',
    head: html`<script type="module" src="/assets/order.js"></script>`,
    body: html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Shop</a> / Order</nav>
<h1>Your order</h1>
<div class="checkout-grid">
  <aside class="card summary">
    ${product ? illustration(product) : ''}
    <div class="summary-body">
      <h2>${product?.name ?? 'Order'}</h2>
      <dl class="facts">
        ${moneyFacts(session, order)}
        <div><dt>Order</dt><dd><code>${id}</code></dd></div>
      </dl>
    </div>
  </aside>
  <section class="card" aria-live="polite" data-live="order" data-session="${id}">
    ${session ? orderStatusFragment(session) : unavailableFragment(options.unavailable ?? '')}
  </section>
</div>`,
  })
}
