import { productById } from '../src/catalog/products.js'
import { checkoutPage } from '../src/pages/checkout.js'
import {
  type ConsoleData,
  closedFragment,
  consolePage,
  detailFragment,
  sessionsFragment,
  webhooksFragment,
} from '../src/pages/console.js'
import { html } from '../src/pages/html.js'
import { layout } from '../src/pages/layout.js'
import { orderPage, orderStatusFragment, unavailableFragment } from '../src/pages/order.js'
import { shopPage } from '../src/pages/shop.js'
import { readConsoleData } from '../src/server/consoleData.js'
import { placeOrder } from '../src/server/placeOrder.js'
import type { SessionRead } from '../src/server/sessions.js'
import { startCapture } from '../src/server/startCapture.js'
import { deletePersistence } from './persistence.js'
import type { Chain, World } from './world.js'

// The hosted demo's page: the Node demo's own page renderers (src/pages), routed by the URL's
// hash so the folder works under any path of any static host. The shop shows at once; the
// chain, the service and the merchant's server side start beside it in lazy chunks (world.ts).

declare const __CHECKOUT_VERSION__: string
declare global {
  interface Window {
    /** The in-page chain, for the Sandbox Wallet (public/sandbox-wallet.js). */
    __sandboxChain?: Chain
  }
}

const main = document.querySelector<HTMLElement>('#page')!
const status = document.querySelector<HTMLElement>('[data-world-status]')!
const terminal = new Set(['SUCCEEDED', 'CANCELED', 'ERROR'])

/**
 * One tab of this browser runs the demo at a time: two chains replaying and extending one saved
 * journal would disagree. The lock is held until the tab closes or reloads.
 */
function holdTab(): Promise<void> {
  if (!navigator.locks) return Promise.resolve()
  return new Promise((resolve, reject) => {
    navigator.locks
      .request('paysession-hosted-demo', { signal: AbortSignal.timeout(5000) }, () => {
        resolve()
        return new Promise(() => {})
      })
      .catch(() =>
        reject(
          new Error(
            'it is open in another tab of this browser. Use that tab, or close it and reload this one.',
          ),
        ),
      )
  })
}

let started: Promise<World> | undefined
/** The chain, the service and the merchant: started once, on the first page that needs them. */
function world(): Promise<World> {
  // Both lazy chunks download while the lock is asked for: the chain's is needed right after
  // the world's, and fetched only from there it would wait for the world's to arrive and run.
  started ??= Promise.all([import('./world.js'), import('./chain.js'), holdTab()])
    .then(([m]) =>
      m.startWorld((chain, wallet) => {
        window.__sandboxChain = chain
        const script = document.createElement('script')
        script.src = './assets/sandbox-wallet.js'
        script.dataset.config = JSON.stringify(wallet)
        document.head.append(script)
      }),
    )
    .then(
      (w) => {
        status.textContent = w.durable
          ? 'Chain and service running in this tab.'
          : 'Chain and service running in this tab, not saved: this browser keeps no IndexedDB here, a reload starts over.'
        status.dataset.worldStatus = 'ready'
        return w
      },
      (error) => {
        status.textContent = `The simulation could not start: ${error instanceof Error ? error.message : error}`
        status.dataset.worldStatus = 'failed'
        throw error
      },
    )
  return started
}

let checkoutScript: Promise<unknown> | undefined
/** The real script-tag build of @paysession/checkout, as a merchant's page loads it. */
const loadCheckout = () => {
  checkoutScript ??= import(
    /* @vite-ignore */ new URL(
      `./cdn/${__CHECKOUT_VERSION__}/paysession-checkout.js`,
      document.baseURI,
    ).href
  )
  return checkoutScript
}

/** Absolute links of the shared renderers ("/console?…") become routes of this page ("#/console?…"). */
function rebase(root: ParentNode) {
  for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href^="/"]'))
    a.setAttribute('href', `#${a.getAttribute('href')}`)
}

let shown = false
/** Shows a page the renderers made for the Node demo: its <main> and its title. */
function show(page: string, active?: 'shop' | 'console') {
  const doc = new DOMParser().parseFromString(page, 'text/html')
  document.title = `${doc.title} (simulation)`
  main.replaceChildren(...doc.querySelector('main')!.childNodes)
  rebase(main)
  // A new page, as a browser would make it: at its top, and read from its heading on.
  if (shown) {
    scrollTo(0, 0)
    const heading = main.querySelector<HTMLElement>('h1')
    heading?.setAttribute('tabindex', '-1')
    heading?.focus({ preventScroll: true })
  }
  shown = true
  for (const link of document.querySelectorAll<HTMLElement>('[data-nav]'))
    if (link.dataset.nav === active) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
}

function replaceLive(key: string, markup: string, last: Record<string, string>) {
  const element = main.querySelector(`[data-live="${key}"]`)
  if (element && last[key] !== markup) {
    element.innerHTML = markup
    rebase(element)
  }
  last[key] = markup
}

const notFound = (what: string) =>
  show(
    layout({
      title: 'Not found',
      body: html`<h1>${what}</h1><p><a href="/">Back to the shop</a></p>`,
    }),
  )

/** Counts navigations: a page that finished loading after the visitor moved on stays unshown. */
let generation = 0
let stopLive: (() => void) | undefined

function every(ms: number, fn: () => Promise<unknown>) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const tick = async () => {
    if ((await fn().catch(() => undefined)) === false || stopped) return
    timer = setTimeout(tick, document.hidden ? ms * 3 : ms)
  }
  timer = setTimeout(tick, ms)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

async function shop(error?: string) {
  show(shopPage({ error, integrations: false }), 'shop')
}

async function checkout(w: World, id: string) {
  const order = w.orders.get(id)
  const product = productById(order?.productId)
  if (!order || !product) return notFound('No such checkout')
  await loadCheckout()
  return () => {
    show(
      checkoutPage({
        order,
        product,
        apiBase: w.serviceUrl,
        wallet: w.wallet,
        cdnAvailable: true,
        integrity: undefined,
        how: html`<p>In this simulation the merchant's server side (<code>@paysession/server</code>, with the sandbox's API key) runs in this tab: it created the payment session in the service that also runs here, and this page shows the session's id and short-lived token. The checkout is the same script-tag build a merchant adds, handed the in-page service through its <code>fetch</code> property and the in-page chain through the Sandbox Wallet. On a real site the server side stays on your server, and the checkout talks to the service over HTTPS, as in the snippet below.</p>`,
      }),
      'shop',
    )
    const widget = main.querySelector('paysession-checkout')
    if (!widget) return
    // Set before the element's first update (a microtask away): the service and the chain in this tab.
    widget.fetch = w.fetch
    widget.wagmiConfig = w.wagmiConfig as NonNullable<typeof widget.wagmiConfig>
    widget.tokenProvider = async (sessionId) => {
      const renewed = await w.renewSessionToken(sessionId).catch(() => undefined)
      const current = w.orders.get(sessionId)
      if (renewed && current)
        w.orders.put({
          ...current,
          sessionToken: renewed.token,
          sessionTokenExpiresAt: renewed.expiresAt,
        })
      return renewed?.token
    }
    widget.addEventListener('paysession-paid', () => {
      const note = main.querySelector<HTMLElement>('.paid-note')
      if (note) note.hidden = false
    })
  }
}

/** The order's live part: its status, or why the shop cannot tell (src/pages/order.ts). */
const orderStatus = (read: SessionRead) =>
  (read.session ? orderStatusFragment(read.session) : unavailableFragment(read.unavailable)).value

async function order(w: World, id: string) {
  const read = await w.sessions.read(id).catch(() => undefined)
  if (!read) return notFound('No such order')
  return () => {
    const current = w.orders.get(id)
    show(
      orderPage({
        session: read.session,
        order: current,
        unavailable: read.unavailable,
        product: productById(current?.productId),
      }),
    )
    const last: Record<string, string> = { order: orderStatus(read) }
    let state = read.session?.status
    stopLive = every(1500, async () => {
      if (state && terminal.has(state)) return false
      const next = await w.sessions.read(id)
      state = next.session?.status
      replaceLive('order', orderStatus(next), last)
    })
  }
}

async function console_(w: World, query: URLSearchParams) {
  const sources = {
    sessions: w.sessions,
    orders: w.orders,
    webhooks: w.webhooks,
    backlog: w.webhookBacklog,
    balances: w.balances,
    treasury: w.treasury,
    tokens: w.wallet.tokens.map((t) => t.symbol),
    facts: { apiUrl: w.serviceUrl, rpcUrl: w.wallet.rpcUrl, webhookUrl: w.webhookUrl },
  }
  const data = await readConsoleData(sources, query.get('session'))
  return () => {
    show(
      consolePage(data, {
        notice: query.get('notice'),
        error: query.get('error'),
        amount: query.get('amount'),
        capture: query.get('capture'),
        csrfToken: 'in-page',
      }),
      'console',
    )
    // The notice and error describe one submission: a reload should not show them again.
    const selected = data.selectedId
    history.replaceState(
      null,
      '',
      selected ? `#/console?session=${encodeURIComponent(selected)}` : '#/console',
    )
    stopLive = liveConsole(() => readConsoleData(sources, selected ?? null), query.has('amount'))
  }
}

/** The console's lists, refreshed in place: the same rules as the Node demo's public/console.js. */
function liveConsole(read: () => Promise<ConsoleData>, typed: boolean) {
  const form = main.querySelector<HTMLFormElement>('.capture-form')
  const fieldset = form?.querySelector('fieldset')
  const amount = main.querySelector<HTMLInputElement>('#capture-amount')
  const notice = main.querySelector<HTMLElement>('.flash-notice[data-capture]')
  let touched = typed
  amount?.addEventListener('input', () => {
    touched = true
  })
  const last: Record<string, string> = {}
  return every(1500, async () => {
    const data = await read()
    const s = data.selected
    replaceLive('sessions', sessionsFragment(data).value, last)
    replaceLive('detail', detailFragment(data).value, last)
    replaceLive('closed', closedFragment(data).value, last)
    replaceLive('webhooks', webhooksFragment(data).value, last)
    if (form) form.hidden = Boolean(closedFragment(data).value)
    if (fieldset) fieldset.disabled = s?.status !== 'FUNDED'
    if (amount && !touched && s?.capturableAmount) amount.value = s.capturableAmount
    const capture = s?.captures?.find((c) => c.captureId === notice?.dataset.capture)
    if (notice && capture && capture.status !== 'CAPTURING') {
      const what = capture.finalCapture ? 'Final capture' : 'Capture'
      const refund =
        capture.finalCapture && /[1-9]/.test(capture.refundAmount ?? '')
          ? `, ${capture.refundAmount} refunded to the customer`
          : ''
      notice.textContent =
        capture.status === 'CAPTURED'
          ? `${what} ${capture.captureId} of ${capture.captureAmount} completed${refund}.`
          : `${what} ${capture.captureId} failed on chain.`
      notice.classList.toggle('alert-error', capture.status === 'FAILED')
      delete notice.dataset.capture
    }
  })
}

/** Renders the page the hash names: `#/`, `#/checkout/:id`, `#/orders/:id`, `#/console?session=…`. */
async function route() {
  const mine = ++generation
  stopLive?.()
  stopLive = undefined
  const [path = '/', search = ''] = location.hash.replace(/^#/, '').split('?')
  const query = new URLSearchParams(search)
  const match = /^\/(checkout|orders)\/([^/]+)$/.exec(path)
  if (path === '/' || path === '') return shop()
  if (!match && path !== '/console') return notFound('Page not found')
  main.setAttribute('aria-busy', 'true')
  try {
    const w = await world()
    if (mine !== generation) return
    const id = match ? decodeURIComponent(match[2]!) : ''
    const render =
      match?.[1] === 'checkout'
        ? await checkout(w, id)
        : match?.[1] === 'orders'
          ? await order(w, id)
          : await console_(w, query)
    if (mine === generation) render?.()
  } finally {
    if (mine === generation) main.removeAttribute('aria-busy')
  }
}

async function buy(form: HTMLFormElement, submitter: HTMLButtonElement | null) {
  const product = productById(submitter?.value)
  if (!product) return shop('Pick a product first.')
  const buttons = form.querySelectorAll('button')
  for (const b of buttons) b.disabled = true
  submitter?.setAttribute('aria-busy', 'true')
  try {
    const w = await world()
    const cart = new FormData(form).get('cart')?.toString() || crypto.randomUUID()
    try {
      const placed = await placeOrder(w, { product, cart, integration: 'script' })
      location.hash = `#/checkout/${encodeURIComponent(placed.paymentSessionId)}`
    } catch (error) {
      shop(`Could not start the checkout: ${w.describeError(error)}`)
    }
  } catch {
    shop('The simulation could not start in this browser (see the banner).')
  }
}

async function capture(form: HTMLFormElement, submitter: HTMLButtonElement | null) {
  const id = decodeURIComponent(
    /\/console\/sessions\/([^/]+)\/captures$/.exec(form.getAttribute('action') ?? '')?.[1] ?? '',
  )
  const amount = (new FormData(form).get('amount')?.toString() ?? '').trim()
  const final = submitter?.value === 'true'
  const fieldset = form.querySelector('fieldset')
  if (fieldset) fieldset.disabled = true
  const w = await world()
  const back = (query: Record<string, string>) => {
    location.hash = `#/console?${new URLSearchParams({ session: id, ...query })}`
  }
  try {
    const c = await startCapture(w, id, { amount, final })
    back({
      notice: `${final ? 'Final capture' : 'Capture'} ${c.captureId} of ${c.captureAmount} started.`,
      capture: c.captureId,
    })
  } catch (error) {
    // What was typed comes back with the error, so the merchant corrects it instead of retyping.
    back({ error: `Capture refused: ${w.describeError(error)}`, amount: amount.slice(0, 40) })
  }
}

document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null
  if (form.matches('form.shop')) {
    event.preventDefault()
    void buy(form, submitter)
  } else if (form.matches('form.capture-form')) {
    event.preventDefault()
    void capture(form, submitter)
  }
})

document.querySelector('[data-reset]')!.addEventListener('click', async () => {
  status.textContent = 'Resetting…'
  stopLive?.()
  const w = await started?.catch(() => undefined)
  await w?.stop()
  await deletePersistence().catch(() => {})
  // What the widget and the Sandbox Wallet remember in this browser belongs to the old chain.
  for (const key of Object.keys(localStorage))
    if (key.startsWith('paysession') || key === 'sandboxWallet') localStorage.removeItem(key)
  history.replaceState(null, '', '#/')
  location.reload()
})

addEventListener('hashchange', () => void route())
void route()
// The shop is usable now; the chain and the service start beside it.
void world().catch(() => {})
