import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signWebhook } from '@paysession/sandbox'
import {
  createPaySessionClient,
  type PaySessionClient,
  verifyWebhookSignature,
} from '@paysession/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookLog } from '../src/server/webhookLog.ts'
import { webhookLogFile } from '../src/server/webhookLogFile.ts'
import { appRoot, checkoutCdnDir, type Demo, startDemo } from '../src/startDemo.ts'

let demo: Demo
let client: PaySessionClient
/** A developer's own endpoint (PAYSESSION_WEBHOOK_URL): records what the demo forwards to it. */
let receiver: Server
const forwarded: { body: string; signature: string | undefined }[] = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      forwarded.push({ body, signature: req.headers['paysession-signature']?.toString() })
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","result":"ok"}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  demo = await startDemo({
    port: 0,
    sandbox: { port: 0, chainPort: 0, quiet: true, interval: 50, webhookRetryDelay: 50 },
    forwardWebhooksTo: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  })
  client = createPaySessionClient({ apiBase: demo.sandbox.apiUrl, apiKey: demo.sandbox.apiKey })
})

afterAll(async () => {
  await demo?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

/**
 * A request to the demo on a TCP connection of its own, answered as fetch with `redirect:
 * 'manual'` would. Not fetch itself: its pool (which the sandbox's webhook deliveries to the demo
 * share) reuses idle keep-alive connections, and one the demo server closes for idleness just as a
 * POST is written on it fails with ECONNRESET, which fetch does not retry for a POST (a browser
 * would). On a loaded machine that race is common. Headers fetch would refuse (Host) can be set.
 */
function request(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const { port } = new URL(demo.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        headers: init.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(res.headers))
            for (const v of [value ?? []].flat()) headers.append(name, v)
          const status = res.statusCode!
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks)
          resolve(new Response(body, { status, headers }))
        })
      },
    ).on('error', reject)
    req.end(init.body)
  })
}

const get = (path: string) => request(path)

function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  })
}

/** The console's per-process token, read from the console page as a browser would. */
async function consoleToken(): Promise<string> {
  const page = await (await get('/console')).text()
  const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1]
  expect(token).toBeTruthy()
  return token!
}

/** A capture from the console form, as the merchant's browser posts it. */
async function capture(id: string, amount: string, final: boolean) {
  return post(`/console/sessions/${id}/captures`, {
    csrf: await consoleToken(),
    amount,
    final: String(final),
  })
}

async function waitFor<T>(read: () => Promise<T> | T, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value) return value as NonNullable<T>
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Buys a product through the shop form and returns the session id from the redirect. */
async function buy(product: string, integration = 'script', cart = crypto.randomUUID()) {
  const res = await post('/checkout', { product, integration, cart })
  expect(res.status).toBe(303)
  const location = res.headers.get('location')!
  const id = /\/(?:checkout|spa)\/(ps_[0-9a-f]+)$/.exec(location)?.[1]
  expect(id, location).toBeTruthy()
  return { id: id!, location }
}

describe('shop', () => {
  it('lists products with prices in USD and EUR, in one form with an idempotency key', async () => {
    const res = await get('/')
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('Field Notebook')
    expect(page).toContain('$12.00')
    expect(page).toContain('€39.00')
    expect(page).toMatch(/name="cart" value="[0-9a-f-]{36}"/)
  })

  it('creates the session on the server and redirects to the script-tag checkout page', async () => {
    const { id, location } = await buy('notebook')
    expect(location).toBe(`/checkout/${id}`)
    const session = await client.getSession(id)
    expect(session).toMatchObject({ amount: '12.00', currency: 'USD', status: 'CREATED' })

    const page = await (await get(location)).text()
    expect(page).toContain(`session-id="${id}"`)
    expect(page).toMatch(/session-token="pst_[0-9a-f]+"/)
    expect(page).toContain(`api-base="${demo.sandbox.apiUrl}"`)
    expect(page).toContain('<script src="/assets/sandbox-wallet.js"')
    expect(page).not.toContain(demo.sandbox.apiKey)
    const cdn = checkoutCdnDir()
    if (existsSync(join(cdn, 'paysession-checkout.js'))) {
      expect(page).toContain('<script type="module" src="/cdn/paysession-checkout.js"')
      const sri = join(cdn, 'sri.json')
      if (existsSync(sri)) {
        const integrity = JSON.parse(readFileSync(sri, 'utf8'))['paysession-checkout.js']
        expect(page).toContain(`integrity="${integrity}" crossorigin="anonymous"`)
      }
      const script = await get('/cdn/paysession-checkout.js')
      expect(script.status).toBe(200)
      expect(script.headers.get('content-type')).toContain('javascript')
    }
  })

  it('replays the same session when the same form is submitted twice', async () => {
    const cart = crypto.randomUUID()
    const first = await buy('mug', 'script', cart)
    const second = await buy('mug', 'script', cart)
    expect(second.id).toBe(first.id)
  })

  it('sells the EUR product in EUR, and hands the SPA its session id and token', async () => {
    const { id, location } = await buy('tamper', 'spa')
    expect(location).toBe(`/spa/${id}`)
    expect(await client.getSession(id)).toMatchObject({ amount: '39.00', currency: 'EUR' })
    const res = await get(`/api/checkout/${id}`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({
      paymentSessionId: id,
      apiBase: demo.sandbox.apiUrl,
      amount: '39.00',
      currency: 'EUR',
      chain: { id: 31337, rpcUrl: demo.sandbox.rpcUrl },
    })
    expect(body.sessionToken).toMatch(/^pst_/)
    const spa = await get(location)
    // The SPA page once it is built (it needs the checkout's npm build), an explanation otherwise:
    // which one is decided by the build on disk, and each is checked.
    const page = await spa.text()
    if (existsSync(join(appRoot, 'dist', 'spa', 'index.html'))) {
      expect(spa.status).toBe(200)
      expect(page).toContain('/assets/sandbox-wallet.js')
    } else {
      expect(spa.status).toBe(503)
      expect(page).toContain('The SPA checkout is not built')
    }
  })

  it("hands the widget a fresh session token once the first one's hour is over", async () => {
    const { id } = await buy('notebook')
    const first = (await (await get(`/api/checkout/${id}`)).json()).sessionToken as string
    demo.sandbox.clock.advance(3600 + 60)
    const read = (token: string) =>
      fetch(`${demo.sandbox.apiUrl}/payment-sessions/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    expect((await read(first)).status).toBe(401)
    const renewed = await request(`/api/checkout/${id}/session-token`, { method: 'POST' })
    expect(renewed.status).toBe(200)
    const { sessionToken } = await renewed.json()
    expect(sessionToken).toMatch(/^pst_/)
    expect(sessionToken).not.toBe(first)
    expect((await read(sessionToken)).status).toBe(200)
    // The checkout page now renders the fresh token.
    expect(await (await get(`/checkout/${id}`)).text()).toContain(sessionToken)
    const unknown = await request('/api/checkout/nope/session-token', { method: 'POST' })
    expect(unknown.status).toBe(404)
  })

  it('answers 404 for an unknown checkout or order', async () => {
    expect((await get('/checkout/ps_000000000000000000000000')).status).toBe(404)
    expect((await get('/orders/ps_000000000000000000000000')).status).toBe(404)
    expect((await get('/api/checkout/nope')).status).toBe(404)
  })
})

describe('payment, webhooks and captures', () => {
  let id: string

  beforeAll(async () => {
    id = (await buy('notebook')).id
  })

  it('logs the FUNDED webhook as verified and confirmed, and the order page follows', async () => {
    await demo.sandbox.pay(id)
    const entry = await waitFor(() =>
      demo.webhooks.entries.find((e) => e.paymentSessionId === id && e.status === 'FUNDED'),
    )
    expect(entry).toMatchObject({ outcome: 'accepted', verified: true, httpStatus: 200 })
    expect(['FUNDED', 'CAPTURING', 'SUCCEEDED']).toContain(entry.confirmedStatus)

    const live = await (await get(`/orders/${id}/live`)).json()
    expect(live.status).toBe('FUNDED')
    expect(live.html).toContain('Payment received')
    const page = await (await get(`/orders/${id}`)).text()
    expect(page).toContain('Field Notebook')
    expect(page).toContain('data-testid="order-status" data-status="FUNDED">Paid<')
  })

  it('captures part, then the rest with a refund, from the console', async () => {
    const partial = await capture(id, '5.00', false)
    expect(partial.status).toBe(303)
    expect(decodeURIComponent(partial.headers.get('location')!)).toMatch(
      /notice=Capture cap_[0-9a-f]+ of 5\.00 started/,
    )
    await waitFor(async () => {
      const s = await client.getSession(id)
      return s.status === 'FUNDED' && s.captures?.[0]?.status === 'CAPTURED'
    })

    const final = await capture(id, '4.00', true)
    expect(decodeURIComponent(final.headers.get('location')!)).toContain('notice=Final capture')
    const session = await waitFor(async () => {
      const s = await client.getSession(id)
      return s.status === 'SUCCEEDED' ? s : undefined
    })
    const last = session.captures!.find((c) => c.finalCapture)!
    expect(last).toMatchObject({ captureAmount: '4.00', refundAmount: '3.00', status: 'CAPTURED' })

    const page = await (await get(`/console?session=${id}`)).text()
    for (const c of session.captures!) expect(page).toContain(c.captureId)
    // The sandbox's delivery backlog, under the webhook log.
    expect(page).toMatch(/data-testid="webhook-backlog">Webhook backlog: (none|\d+ update)/)
    expect(page).toContain(last.captureTransferTransactionHash!.slice(0, 8))
    expect(page).toContain(last.refundTransferTransactionHash!.slice(0, 8))
    // Balances read from the chain: the treasury got 9.00, customer 0 paid 12.00 and got 3.00 back.
    expect(page).toMatch(/Treasury[\s\S]*?9\.00/)
    expect(page).toMatch(/Customer[\s\S]*?9,991\.00/)
    await waitFor(() =>
      demo.webhooks.entries.find((e) => e.paymentSessionId === id && e.status === 'SUCCEEDED'),
    )
    const live = await (await get(`/console/live?session=${id}`)).json()
    expect(live.status).toBe('SUCCEEDED')
    expect(live.webhooks).toContain('SUCCEEDED')
    // Nothing is left to capture: the form gives way to what happened, live and on reload.
    expect(live.closed).toContain('3.00 USDC</strong> refunded')
    expect(live.captures).toHaveLength(2)
    expect(live.captures[1]).toMatchObject({ status: 'CAPTURED', refundAmount: '3.00' })
    expect(page).toMatch(/<form [^>]*class="capture-form" hidden/)
    expect(page).toContain('9.00 USDC</strong> captured')

    // The customer's order page says what came back, exactly.
    const order = await (await get(`/orders/${id}`)).text()
    expect(order).toContain(
      '$12.00 <span class="refund" data-testid="order-refund">3.00 USDC refunded',
    )
    expect(order).toContain('data-status="SUCCEEDED">Complete<')
  })

  it('forwards each verified webhook, byte for byte with its signature, to PAYSESSION_WEBHOOK_URL', async () => {
    const funded = await waitFor(() =>
      forwarded.find((f) => f.body.includes(id) && f.body.includes('"FUNDED"')),
    )
    const verified = await verifyWebhookSignature({
      secret: demo.sandbox.webhookSecret,
      header: funded.signature ?? null,
      body: new TextEncoder().encode(funded.body),
      toleranceSeconds: 3600,
      // Signed on the sandbox's clock, which an earlier test moved forward.
      now: Math.floor(demo.sandbox.clock.now() / 1000),
    })
    expect(verified.ok).toBe(true)
    const entry = await waitFor(() =>
      demo.webhooks.entries.find(
        (e) => e.paymentSessionId === id && e.status === 'FUNDED' && e.forwarded !== undefined,
      ),
    )
    expect(entry.forwarded).toBe(200)
  })

  it('shows the service refusing a capture of a session that is not FUNDED', async () => {
    const unpaid = (await buy('beanie')).id
    const res = await capture(unpaid, '1.25', true)
    const location = decodeURIComponent(res.headers.get('location')!)
    expect(location).toContain('error=Capture refused')
    expect(location).toContain('SESSION_NOT_CAPTURABLE')
    const page = await (await get(res.headers.get('location')!)).text()
    expect(page).toContain('SESSION_NOT_CAPTURABLE')
    expect(page).toMatch(/<fieldset\s+disabled/)
    // What the merchant typed is still there, and the live refresh will not overwrite it.
    expect(page).toMatch(/id="capture-amount"[^>]*value="1\.25" data-typed/)
  })
})

describe('webhook endpoint', () => {
  const body = (eventId: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: eventId,
      method: 'paysession_paymentStatusUpdate',
      params: [
        {
          merchantId: 'merchant_sandbox',
          paymentSessionId: 'ps_000000000000000000000000',
          status: 'FUNDED',
          updatedAt: new Date().toISOString(),
        },
      ],
    })
  const deliver = (text: string, signature: string) =>
    request('/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'paysession-signature': signature },
      body: text,
    })

  // The demo measures a signature's age on the sandbox's clock, which an earlier test moved.
  const now = () => Math.floor(demo.sandbox.clock.now() / 1000)

  it('refuses and logs a forged signature', async () => {
    const text = body('evt_forged')
    const res = await deliver(text, signWebhook('whsec_not_the_secret', text, now()))
    expect(res.status).toBe(401)
    expect(demo.webhooks.entries[0]).toMatchObject({
      id: 'evt_forged',
      outcome: 'rejected',
      reason: 'SIGNATURE_MISMATCH',
      httpStatus: 401,
    })
    const page = await (await get('/console')).text()
    expect(page).toContain('Rejected: SIGNATURE_MISMATCH')
  })

  it('refuses a stale signature', async () => {
    const text = body('evt_stale')
    const old = now() - 3600
    const res = await deliver(text, signWebhook(demo.sandbox.webhookSecret, text, old))
    expect(res.status).toBe(401)
    expect(demo.webhooks.entries[0]).toMatchObject({ reason: 'STALE_TIMESTAMP' })
  })
})

describe('assets', () => {
  it('serves the sandbox wallet and the stylesheet', async () => {
    const wallet = await get('/assets/sandbox-wallet.js')
    expect(wallet.status).toBe(200)
    expect(wallet.headers.get('content-type')).toContain('javascript')
    const text = await wallet.text()
    expect(text).toContain('eip6963:announceProvider')
    expect(text).toContain('dev.paysession.sandbox')
    expect((await get('/assets/styles.css')).headers.get('content-type')).toContain('text/css')
  })

  it('never serves a file outside its folder', async () => {
    const { port } = new URL(demo.url)
    const status = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/assets/..%2fpackage.json' }, (res) => {
        res.resume()
        resolve(res.statusCode!)
      })
        .on('error', reject)
        .end()
    })
    expect(status).toBe(404)
  })
})

describe('browser safety', () => {
  it('sends a Content-Security-Policy, nosniff, frame-ancestors and a referrer policy', async () => {
    for (const path of ['/', '/console', '/assets/styles.css']) {
      const res = await get(path)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('same-origin')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("script-src 'self';")
      expect(csp).toContain("default-src 'self'")
      // The widget talks to the service and the chain, and to nothing else.
      expect(csp).toContain(
        `connect-src 'self' ${new URL(demo.sandbox.apiUrl).origin} ${demo.sandbox.rpcUrl}`,
      )
    }
    // The policy forbids inline scripts: no page has one.
    const { location } = await buy('notebook')
    for (const path of ['/', '/console', location]) {
      const page = await (await get(path)).text()
      for (const tag of page.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\ssrc="/)
    }
  })

  it('refuses a request whose Host names another site', async () => {
    const { port } = new URL(demo.url)
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
      const res = await request('/console', { headers: { host } })
      expect(res.status, host).toBe(421)
      expect(await res.text()).not.toContain('Merchant console')
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await request('/', { headers: { host } })).status, host).toBe(200)
    }
  })

  it('captures only with the console token, and only from this site', async () => {
    const id = (await buy('mug')).id
    await demo.sandbox.pay(id)
    await waitFor(async () => (await client.getSession(id)).status === 'FUNDED')
    const token = await consoleToken()
    const form = { amount: '1.00', final: 'false' }
    const { host } = new URL(demo.url)

    // No token, a wrong one: refused before the service is asked.
    expect((await post(`/console/sessions/${id}/captures`, form)).status).toBe(403)
    const forged = await post(`/console/sessions/${id}/captures`, { ...form, csrf: 'x'.repeat(43) })
    expect(forged.status).toBe(403)
    // A page on another site posting the form (the browser adds Origin and Sec-Fetch-Site).
    const crossSite = await post(
      `/console/sessions/${id}/captures`,
      { ...form, csrf: token },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    )
    expect(crossSite.status).toBe(403)
    expect(
      (
        await post(
          `/console/sessions/${id}/captures`,
          { ...form, csrf: token },
          { 'sec-fetch-site': 'same-site' },
        )
      ).status,
    ).toBe(403)
    expect(
      (
        await post(
          `/console/sessions/${id}/captures`,
          { ...form, csrf: token },
          { origin: 'http://localhost:1' },
        )
      ).status,
    ).toBe(403)
    // Nor may another site start checkouts in the shop's name.
    const shop = await post(
      '/checkout',
      { product: 'mug', integration: 'script', cart: crypto.randomUUID() },
      { origin: 'https://evil.example' },
    )
    expect(shop.status).toBe(403)
    expect((await client.getSession(id)).captures ?? []).toHaveLength(0)

    // The console itself: same origin, with the token in the form (or the x-csrf-token header).
    const same = await post(`/console/sessions/${id}/captures`, form, {
      origin: `http://${host}`,
      'sec-fetch-site': 'same-origin',
      'x-csrf-token': token,
    })
    expect(same.status).toBe(303)
    expect(decodeURIComponent(same.headers.get('location')!)).toContain('of 1.00 started')
    expect((await client.getSession(id)).captures).toHaveLength(1)
  })
})

describe('the sandbox wallet on any page', () => {
  it('is served ready-configured at /sandbox-wallet.js', async () => {
    const res = await get('/sandbox-wallet.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-type')).toContain('javascript')
    const text = await res.text()
    // The built wallet, preceded by one statement that fills in its script tag's data-config.
    const literal = /^\{.*dataset\.config=("(?:[^"\\]|\\.)*")\}\n/.exec(text)?.[1]
    expect(literal).toBeTruthy()
    expect(text).toContain('eip6963:announceProvider')
    const config = JSON.parse(JSON.parse(literal!))
    expect(config).toMatchObject({ rpcUrl: demo.sandbox.rpcUrl, chainId: 31337 })
    expect(config.accounts).toHaveLength(demo.sandbox.customers.length)
    expect(config.tokens.map((t: { symbol: string }) => t.symbol)).toContain('USDC')
  })
})

describe('webhook log', () => {
  it('survives a restart, and a line torn by a crash loses only that line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-webhooks-'))
    const file = join(dir, 'demo-webhooks.jsonl')
    try {
      const text = JSON.stringify({
        jsonrpc: '2.0',
        id: 'evt_persist',
        method: 'paysession_paymentStatusUpdate',
        params: [
          {
            merchantId: 'merchant_sandbox',
            paymentSessionId: 'ps_000000000000000000000000',
            status: 'FUNDED',
            updatedAt: new Date().toISOString(),
          },
        ],
      })
      const first = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      const forged = () =>
        new Request('http://127.0.0.1/webhooks', {
          method: 'POST',
          headers: { 'paysession-signature': signWebhook('whsec_other', text) },
          body: text,
        })
      expect((await first.handler(forged())).status).toBe(401)
      await waitFor(() => first.entries.length === 1) // logged once the body was read back
      // kill -9 in the middle of the next line:
      appendFileSync(file, '{"receivedAt":"2026-')

      const second = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      expect(second.entries).toEqual(first.entries)
      expect(second.entries[0]).toMatchObject({ id: 'evt_persist', reason: 'SIGNATURE_MISMATCH' })
      await second.handler(forged())
      await waitFor(() => second.entries.length === 2)
      const third = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      expect(third.entries).toHaveLength(2)

      // Past twice the 500 kept entries the file is rewritten (temp file + rename) to the newest.
      for (let i = 0; i < 1000; i++) await third.handler(forged())
      await waitFor(() => readFileSync(file, 'utf8').split('\n').length <= 502)
      expect(existsSync(`${file}.tmp`)).toBe(false)
      const fourth = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      expect(fourth.entries).toHaveLength(500)
      expect(fourth.entries).toEqual(third.entries)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('remembers handled deliveries across a restart: the same delivery again is a duplicate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-webhooks-'))
    const file = join(dir, 'demo-webhooks.jsonl')
    try {
      const { id } = await buy('mug')
      const text = JSON.stringify({
        jsonrpc: '2.0',
        id: 'evt_once',
        method: 'paysession_paymentStatusUpdate',
        params: [
          {
            merchantId: 'merchant_sandbox',
            paymentSessionId: id,
            status: 'CREATED',
            updatedAt: new Date().toISOString(),
          },
        ],
      })
      const delivery = () =>
        new Request('http://127.0.0.1/webhooks', {
          method: 'POST',
          headers: { 'paysession-signature': signWebhook('whsec_test', text) },
          body: text,
        })
      const first = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      expect((await first.handler(delivery())).status).toBe(200)
      expect(first.entries[0]).toMatchObject({ id: 'evt_once', outcome: 'accepted' })

      const second = createWebhookLog({ secret: 'whsec_test', client, store: webhookLogFile(file) })
      expect((await second.handler(delivery())).status).toBe(200)
      expect(second.entries.map((e) => e.outcome)).toEqual(['duplicate', 'accepted'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
