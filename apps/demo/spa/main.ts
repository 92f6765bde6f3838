// The same checkout as /checkout/:id, inside a small single-page app that imports the
// npm package instead of the script tag. The SPA asks its own server for the session's
// id and token (never the API key), then renders the element.
import '@paysession/checkout'

type Checkout = {
  paymentSessionId: string
  sessionToken: string
  apiBase: string
  /** The merchant's gasless relay, when mounted. */
  relayUrl?: string
  /** Sandbox only: the local chain's RPC. */
  chain?: { id: number; rpcUrl: string }
  product: { name: string; description: string; image: string }
  amount: string
  currency: string
}

const app = document.querySelector<HTMLElement>('#app')!
const symbols: Record<string, string> = { USD: '$', EUR: '€' }
const price = (c: Checkout) => `${symbols[c.currency] ?? ''}${c.amount} ${c.currency}`

function sessionIdFromUrl(): string | null {
  const fromQuery = new URLSearchParams(location.search).get('session')
  return fromQuery ?? /^\/spa\/([^/]+)/.exec(location.pathname)?.[1] ?? null
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props)
  node.append(...children)
  return node
}

function renderError(text: string) {
  app.replaceChildren(
    el('h1', {}, 'Checkout'),
    el('p', { className: 'alert alert-error', role: 'alert' }, text),
    el('p', {}, el('a', { href: '/' }, '← Back to the shop')),
  )
}

function renderPaid(c: Checkout) {
  history.pushState({ paid: true }, '', `/spa/${encodeURIComponent(c.paymentSessionId)}/paid`)
  app.replaceChildren(
    el('h1', {}, 'Thank you!'),
    el(
      'section',
      { className: 'card thanks' },
      el('h2', {}, 'Payment received'),
      el(
        'p',
        { className: 'muted' },
        `${c.product.name}, ${price(c)}. Your order is being prepared.`,
      ),
      el(
        'a',
        { className: 'button', href: `/orders/${encodeURIComponent(c.paymentSessionId)}` },
        'Follow your order',
      ),
    ),
  )
}

function renderCheckout(c: Checkout) {
  const widget = document.createElement('paysession-checkout')
  widget.setAttribute('session-id', c.paymentSessionId)
  widget.setAttribute('session-token', c.sessionToken)
  widget.setAttribute('api-base', c.apiBase)
  widget.setAttribute('merchant-name', 'Harbor & Pine')
  // The widget refuses a session that is not for this order's amount and currency.
  widget.setAttribute('expected-amount', c.amount)
  widget.setAttribute('expected-currency', c.currency)
  if (c.relayUrl) widget.setAttribute('relay-url', c.relayUrl)
  if (c.chain) widget.rpcUrls = { [c.chain.id]: c.chain.rpcUrl }
  // A fresh session token from the merchant's server when the service refuses this one.
  widget.tokenProvider = async (sessionId) => {
    const response = await fetch(`/api/checkout/${encodeURIComponent(sessionId)}/session-token`, {
      method: 'POST',
    })
    return response.ok
      ? ((await response.json()) as { sessionToken: string }).sessionToken
      : undefined
  }
  // The widget shows its own success step; the SPA moves on a moment later.
  widget.addEventListener('paysession-paid', () => setTimeout(() => renderPaid(c), 1500))

  app.replaceChildren(
    el(
      'nav',
      { className: 'crumbs', ariaLabel: 'Breadcrumb' },
      el('a', { href: '/' }, 'Shop'),
      ' / Checkout (SPA)',
    ),
    el('h1', {}, 'Checkout'),
    el(
      'div',
      { className: 'checkout-grid' },
      el(
        'aside',
        { className: 'card summary' },
        el('img', { className: 'illustration', src: c.product.image, alt: c.product.name }),
        el(
          'div',
          { className: 'summary-body' },
          el('h2', {}, c.product.name),
          el('p', { className: 'muted' }, c.product.description),
          el(
            'dl',
            { className: 'facts' },
            el('div', {}, el('dt', {}, 'Total'), el('dd', { className: 'price' }, price(c))),
            el('div', {}, el('dt', {}, 'Order'), el('dd', {}, el('code', {}, c.paymentSessionId))),
          ),
          el(
            'a',
            { className: 'link', href: `/orders/${encodeURIComponent(c.paymentSessionId)}` },
            'Follow this order →',
          ),
        ),
      ),
      el(
        'section',
        { className: 'card pay' },
        el('h2', {}, 'Pay with stablecoins'),
        el(
          'p',
          { className: 'muted' },
          'Rendered by a Vite app from the @paysession/checkout npm package.',
        ),
        el('div', { className: 'widget-slot' }, widget),
      ),
    ),
  )
}

async function main() {
  const id = sessionIdFromUrl()
  if (!id) return renderError('No checkout session in the address. Start from the shop.')
  const response = await fetch(`/api/checkout/${encodeURIComponent(decodeURIComponent(id))}`).catch(
    () => undefined,
  )
  if (!response?.ok)
    return renderError('This checkout does not exist (or the merchant server is down).')
  const checkout = (await response.json()) as Checkout
  if (location.pathname.endsWith('/paid')) renderPaid(checkout)
  else renderCheckout(checkout)
}

window.addEventListener('popstate', () => void main())
void main()
