import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { WebhookBacklog } from '@paysession/sandbox'
import { isPaySessionError, type PaymentSession, type PaySessionClient } from '@paysession/server'
import { toNodeListener } from '@paysession/server/node'
import { productById } from '../catalog/products.js'
import { checkoutPage, type WalletConfig, walletTag } from '../pages/checkout.js'
import {
  closedFragment,
  consolePage,
  detailFragment,
  sessionsFragment,
  webhooksFragment,
} from '../pages/console.js'
import { escapeHtml, html } from '../pages/html.js'
import { illustration } from '../pages/illustration.js'
import { layout } from '../pages/layout.js'
import { orderPage, orderStatusFragment, unavailableFragment } from '../pages/order.js'
import { shopPage } from '../pages/shop.js'
import type { BalanceReader } from './balances.js'
import { readConsoleData } from './consoleData.js'
import { readForm, redirect, send, sendJson, serveFile } from './http.js'
import type { OrderStore } from './orders.js'
import { placeOrder } from './placeOrder.js'
import { createSecurity } from './security.js'
import { createSessionReader } from './sessions.js'
import { startCapture } from './startCapture.js'
import type { WebhookLog } from './webhookLog.js'

export type DemoServerOptions = {
  client: PaySessionClient
  orders: OrderStore
  webhooks: WebhookLog
  balances: BalanceReader
  /** The service's base URL the widget talks to (the sandbox's). */
  apiBase: string
  /**
   * A fresh session token for an order's page, or undefined when the service cannot renew one.
   * The spec has no renewal; the sandbox has it as an extension (API key).
   */
  renewSessionToken: (
    paymentSessionId: string,
  ) => Promise<{ token: string; expiresAt: string | undefined } | undefined>
  wallet: WalletConfig
  treasury: string
  /**
   * The gasless relay (`createRelayHandler`), mounted at /relay: the merchant's relayer submits
   * customers' EIP-3009 authorizations and pays their gas. Without it the widget offers none.
   */
  relay?: ((request: Request) => Promise<Response>) | undefined
  /** Where the sandbox posts status updates (shown in the console). */
  webhookUrl: () => string
  /** What the sandbox still has to deliver (shown in the console). */
  webhookBacklog?: (() => WebhookBacklog) | undefined
  /** Where verified webhooks are forwarded too (PAYSESSION_WEBHOOK_URL), if anywhere. */
  forwardUrl?: string | undefined
  /** Host names the server answers to besides 127.0.0.1, localhost and [::1]. */
  hosts?: string[]
  paths: {
    /** apps/demo/public */
    assets: string
    /** The built Sandbox Wallet's folder (apps/demo/dist/wallet), served under /assets too. */
    wallet: string
    /** packages/checkout/dist/cdn: the script-tag build. */
    cdn: string
    /** apps/demo/dist/spa: the Vite-built SPA. */
    spa: string
  }
}

const sessionPath = /^\/(checkout|orders|api\/checkout)\/([^/]+?)(\/live)?$/

/** The integrity hash of the script-tag build, if the checkout build publishes one. */
function readIntegrity(cdn: string): string | undefined {
  for (const name of ['sri.json', 'integrity.json']) {
    const file = join(cdn, name)
    if (!existsSync(file)) continue
    try {
      const json = JSON.parse(readFileSync(file, 'utf8'))
      const entry = json['paysession-checkout.js'] ?? json.integrity
      const value = typeof entry === 'string' ? entry : entry?.integrity
      if (typeof value === 'string' && /^sha(256|384|512)-/.test(value)) return value
    } catch {}
  }
  return undefined
}

function message(error: unknown): string {
  if (isPaySessionError(error)) return `${error.shortMessage} (${error.code})`
  return error instanceof Error ? error.message : String(error)
}

/** The demo merchant's HTTP server: its pages, its small JSON API, its webhook endpoint. */
export function createDemoServer(options: DemoServerOptions): Server {
  const { client, orders } = options
  const sessions = createSessionReader({
    client,
    orders,
    renewSessionToken: options.renewSessionToken,
  })
  const onWebhook = toNodeListener(options.webhooks.handler)
  const onRelay = options.relay && toNodeListener(options.relay)
  const relayUrl = onRelay ? '/relay' : undefined
  let port = 0
  const security = createSecurity({
    port: () => port,
    connectSources: [options.apiBase, options.wallet.rpcUrl],
    ...(options.hosts ? { hosts: options.hosts } : {}),
  })
  const forbidden = (res: ServerResponse, why: string) =>
    send(res, 403, `Refused: ${why}. Use the console on this site.`, 'text/plain; charset=utf-8')

  const notFound = (res: ServerResponse, what = 'Page not found') =>
    send(
      res,
      404,
      layout({
        title: 'Not found',
        body: html`<h1>${what}</h1><p><a href="/">Back to the shop</a></p>`,
      }),
    )

  /** The session read with the order's own token (see sessions.ts), or undefined after a 404. */
  async function readOr404(res: ServerResponse, id: string) {
    try {
      return await sessions.read(id)
    } catch (error) {
      if (isPaySessionError(error, 'SESSION_NOT_FOUND')) {
        notFound(res, 'No such order')
        return undefined
      }
      throw error
    }
  }

  const consoleData = (selectedId: string | null) =>
    readConsoleData(
      {
        sessions,
        orders,
        webhooks: options.webhooks,
        backlog: options.webhookBacklog,
        balances: options.balances,
        treasury: options.treasury,
        tokens: options.wallet.tokens.map((t) => t.symbol),
        facts: {
          apiUrl: options.apiBase,
          rpcUrl: options.wallet.rpcUrl,
          webhookUrl: options.webhookUrl(),
          forwardUrl: options.forwardUrl,
        },
      },
      selectedId,
    )

  async function createCheckout(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req)
    const product = productById(form.get('product'))
    if (!product) return send(res, 400, shopPage({ error: 'Pick a product first.' }))
    const integration = form.get('integration') === 'spa' ? 'spa' : 'script'
    const cart = form.get('cart') || crypto.randomUUID()
    try {
      const order = await placeOrder({ client, orders }, { product, cart, integration })
      const base = integration === 'spa' ? '/spa' : '/checkout'
      redirect(res, `${base}/${encodeURIComponent(order.paymentSessionId)}`)
    } catch (error) {
      send(res, 502, shopPage({ error: `Could not start the checkout: ${message(error)}` }))
    }
  }

  async function capture(req: IncomingMessage, res: ServerResponse, id: string) {
    const form = await readForm(req)
    if (!security.tokenValid(req.headers['x-csrf-token']?.toString() ?? form.get('csrf'))) {
      return forbidden(res, 'the console token is missing or stale (reload the console)')
    }
    const amount = (form.get('amount') ?? '').trim()
    const final = form.get('final') === 'true'
    const back = (query: Record<string, string>) =>
      redirect(
        res,
        `/console?${Object.entries({ session: id, ...query })
          .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
          .join('&')}`,
      )
    try {
      const c = await startCapture({ client, orders }, id, { amount, final })
      back({
        notice: `${final ? 'Final capture' : 'Capture'} ${c.captureId} of ${c.captureAmount} started.`,
        capture: c.captureId,
      })
    } catch (error) {
      // What was typed comes back with the error, so the merchant corrects it instead of retyping.
      back({ error: `Capture refused: ${message(error)}`, amount: amount.slice(0, 40) })
    }
  }

  /**
   * The widget's `tokenProvider` asks here when the service refuses its session token: the token
   * only lives an hour, a checkout page can stay open longer (and the funding window is 24 h).
   * It hands only what the checkout page itself shows anyone who has the order's address.
   */
  async function sessionToken(res: ServerResponse, id: string) {
    const order = orders.get(id)
    if (!order)
      return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'No such checkout' } })
    const renewed = await options.renewSessionToken(id).catch(() => undefined)
    if (!renewed)
      return sendJson(res, 503, {
        error: { code: 'TOKEN_UNAVAILABLE', message: 'The service gave no fresh session token.' },
      })
    orders.put({ ...order, sessionToken: renewed.token, sessionTokenExpiresAt: renewed.expiresAt })
    sendJson(res, 200, { sessionToken: renewed.token, sessionTokenExpiresAt: renewed.expiresAt })
  }

  function spaPage(res: ServerResponse) {
    const index = join(options.paths.spa, 'index.html')
    if (!existsSync(index)) {
      return send(
        res,
        503,
        layout({
          title: 'SPA not built',
          body: html`<h1>The SPA checkout is not built</h1><p class="muted">It needs the <code>@paysession/checkout</code> npm build. Run <code>npm run setup</code>, then restart the demo.</p>`,
        }),
      )
    }
    const page = readFileSync(index, 'utf8').replace(
      '<!-- sandbox-wallet -->',
      walletTag(options.wallet).value,
    )
    send(res, 200, page)
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://demo.local')
    const { pathname } = url
    const method = req.method ?? 'GET'

    if (!security.hostAllowed(req)) {
      return send(res, 421, `This server does not answer for ${req.headers.host}.`, 'text/plain')
    }
    for (const [name, value] of Object.entries(security.headers())) res.setHeader(name, value)
    // The service calls /webhooks from its own servers: the signature is its proof, not an origin.
    if (pathname === '/webhooks') return onWebhook(req, res)
    // The relay answers its own CORS, and a customer's signed authorization is its proof.
    if (pathname === '/relay' && onRelay) return onRelay(req, res)
    if (method !== 'GET' && method !== 'HEAD') {
      const refused = security.crossSite(req)
      if (refused) return forbidden(res, refused)
    }
    const tokenMatch = /^\/api\/checkout\/([^/]+)\/session-token$/.exec(pathname)
    if (method === 'POST' && tokenMatch)
      return sessionToken(res, decodeURIComponent(tokenMatch[1]!))
    if (method === 'POST' && pathname === '/checkout') return createCheckout(req, res)
    const captureMatch = /^\/console\/sessions\/([^/]+)\/captures$/.exec(pathname)
    if (method === 'POST' && captureMatch)
      return capture(req, res, decodeURIComponent(captureMatch[1]!))
    if (method !== 'GET' && method !== 'HEAD')
      return send(res, 405, 'Method not allowed', 'text/plain')

    if (pathname === '/') return send(res, 200, shopPage())
    if (pathname === '/sandbox-wallet.js') {
      res.setHeader('access-control-allow-origin', '*')
      // The Sandbox Wallet with this sandbox's chain and customers built in, for any page: its
      // script tag's data-config, unless the page gave one.
      const source = readFileSync(join(options.paths.wallet, 'sandbox-wallet.js'), 'utf8')
      const config = JSON.stringify(JSON.stringify(options.wallet))
      return send(
        res,
        200,
        `{const s=document.currentScript;if(s&&!s.dataset.config)s.dataset.config=${config}}\n${source}`,
        'text/javascript; charset=utf-8',
      )
    }
    const picture = /^\/products\/([a-z-]+)\.svg$/.exec(pathname)
    const pictured = productById(picture?.[1])
    if (pictured) return send(res, 200, illustration(pictured).value, 'image/svg+xml')
    if (pathname === '/assets/sandbox-wallet.js') {
      return serveFile(req, res, options.paths.wallet, 'sandbox-wallet.js') || notFound(res)
    }
    if (pathname.startsWith('/assets/')) {
      return serveFile(req, res, options.paths.assets, pathname.slice(8)) || notFound(res)
    }
    if (pathname.startsWith('/cdn/')) {
      // Public code: a page on another origin may load it as a module (docs/demo.md).
      res.setHeader('access-control-allow-origin', '*')
      return serveFile(req, res, options.paths.cdn, pathname.slice(5)) || notFound(res)
    }
    if (pathname.startsWith('/spa/assets/')) {
      return serveFile(req, res, options.paths.spa, pathname.slice(5)) || notFound(res)
    }
    // The SPA routes itself: /spa/:id, /spa/:id/paid, /spa?session=…
    if (pathname === '/spa' || pathname.startsWith('/spa/')) return spaPage(res)
    if (pathname === '/console') {
      const data = await consoleData(url.searchParams.get('session'))
      return send(
        res,
        200,
        consolePage(data, {
          notice: url.searchParams.get('notice'),
          error: url.searchParams.get('error'),
          amount: url.searchParams.get('amount'),
          capture: url.searchParams.get('capture'),
          csrfToken: security.csrfToken,
        }),
      )
    }
    if (pathname === '/console/live') {
      const data = await consoleData(url.searchParams.get('session'))
      return sendJson(res, 200, {
        status: data.selected?.status ?? null,
        capturableAmount: data.selected?.capturableAmount ?? null,
        sessions: sessionsFragment(data).value,
        detail: detailFragment(data).value,
        closed: closedFragment(data).value,
        webhooks: webhooksFragment(data).value,
        captures: (data.selected?.captures ?? []).map((c) => ({
          captureId: c.captureId,
          status: c.status,
          captureAmount: c.captureAmount,
          refundAmount: c.refundAmount,
          finalCapture: c.finalCapture,
        })),
      })
    }

    const match = sessionPath.exec(pathname)
    if (!match) return notFound(res)
    const [, kind, rawId, live] = match
    const id = decodeURIComponent(rawId!)
    const order = orders.get(id)

    if (kind === 'checkout' && !live) {
      const product = productById(order?.productId)
      if (!order || !product) return notFound(res, 'No such checkout')
      return send(
        res,
        200,
        checkoutPage({
          order,
          product,
          apiBase: options.apiBase,
          relayUrl,
          wallet: options.wallet,
          cdnAvailable: existsSync(join(options.paths.cdn, 'paysession-checkout.js')),
          integrity: readIntegrity(options.paths.cdn),
        }),
      )
    }
    if (kind === 'api/checkout' && !live) {
      // The SPA's equivalent of the checkout page: what the customer's browser needs, never the API key.
      const product = productById(order?.productId)
      if (!order || !product)
        return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'No such checkout' } })
      return sendJson(res, 200, {
        paymentSessionId: order.paymentSessionId,
        sessionToken: order.sessionToken,
        apiBase: options.apiBase,
        relayUrl,
        chain: { id: options.wallet.chainId, rpcUrl: options.wallet.rpcUrl },
        product: {
          name: product.name,
          description: product.description,
          image: `/products/${product.id}.svg`,
        },
        amount: order.amount,
        currency: order.currency,
      })
    }
    if (kind === 'orders') {
      const read = await readOr404(res, id)
      if (!read) return
      const session: PaymentSession | undefined = read.session
      if (live) {
        return sendJson(res, 200, {
          status: session?.status ?? null,
          html: (session ? orderStatusFragment(session) : unavailableFragment(read.unavailable!))
            .value,
        })
      }
      return send(
        res,
        200,
        orderPage({
          session,
          order,
          unavailable: read.unavailable,
          product: productById(order?.productId),
        }),
      )
    }
    notFound(res)
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy()
      send(res, 500, `Demo server error: ${escapeHtml(message(error))}`, 'text/html; charset=utf-8')
    })
  })
  server.on('listening', () => {
    const address = server.address()
    port = typeof address === 'object' && address ? address.port : 0
  })
  return server
}
