import { existsSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { signWebhook } from '@paysession/sandbox'
import { createPaySessionClient, type PaySessionClient } from '@paysession/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutCdnDir, type Demo, startDemo } from '../src/startDemo.ts'

let demo: Demo
let client: PaySessionClient

beforeAll(async () => {
  demo = await startDemo({
    port: 0,
    sandbox: { port: 0, chainPort: 0, quiet: true, pollIntervalMs: 50, webhookBaseDelayMs: 50 },
  })
  client = createPaySessionClient({ baseUrl: demo.sandbox.apiUrl, apiKey: demo.sandbox.apiKey })
})

afterAll(async () => {
  await demo?.stop()
})

const get = (path: string) => fetch(`${demo.url}${path}`, { redirect: 'manual' })

function post(path: string, form: Record<string, string>) {
  return fetch(`${demo.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
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
    // 200 once the SPA is built (it needs the checkout's npm build), an explanation otherwise.
    expect([200, 503]).toContain(spa.status)
    if (spa.status === 200) expect(await spa.text()).toContain('/assets/sandbox-wallet.js')
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
    const renewed = await fetch(`${demo.url}/api/checkout/${id}/session-token`, { method: 'POST' })
    expect(renewed.status).toBe(200)
    const { sessionToken } = await renewed.json()
    expect(sessionToken).toMatch(/^pst_/)
    expect(sessionToken).not.toBe(first)
    expect((await read(sessionToken)).status).toBe(200)
    // The checkout page now renders the fresh token.
    expect(await (await get(`/checkout/${id}`)).text()).toContain(sessionToken)
    const unknown = await fetch(`${demo.url}/api/checkout/nope/session-token`, { method: 'POST' })
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
    expect(page).toContain('data-testid="order-status">FUNDED')
  })

  it('captures part, then the rest with a refund, from the console', async () => {
    const partial = await post(`/console/sessions/${id}/captures`, {
      amount: '5.00',
      final: 'false',
    })
    expect(partial.status).toBe(303)
    expect(decodeURIComponent(partial.headers.get('location')!)).toMatch(
      /notice=Capture cap_[0-9a-f]+ of 5\.00 started/,
    )
    await waitFor(async () => {
      const s = await client.getSession(id)
      return s.status === 'FUNDED' && s.captures?.[0]?.status === 'CAPTURED'
    })

    const final = await post(`/console/sessions/${id}/captures`, { amount: '4.00', final: 'true' })
    expect(decodeURIComponent(final.headers.get('location')!)).toContain('notice=Final capture')
    const session = await waitFor(async () => {
      const s = await client.getSession(id)
      return s.status === 'SUCCEEDED' ? s : undefined
    })
    const last = session.captures!.find((c) => c.finalCapture)!
    expect(last).toMatchObject({ captureAmount: '4.00', refundAmount: '3.00', status: 'CAPTURED' })

    const page = await (await get(`/console?session=${id}`)).text()
    for (const c of session.captures!) expect(page).toContain(c.captureId)
    expect(page).toContain(last.captureTransferTransactionHash!.slice(0, 8))
    expect(page).toContain(last.refundTransferTransactionHash!.slice(0, 8))
    // Balances read from the chain: the treasury got 9.00, customer 0 paid 12.00 and got 3.00 back.
    expect(page).toMatch(/Treasury[\s\S]*?9\.00/)
    expect(page).toMatch(/Customer[\s\S]*?9991\.00/)
    await waitFor(() =>
      demo.webhooks.entries.find((e) => e.paymentSessionId === id && e.status === 'SUCCEEDED'),
    )
    const live = await (await get(`/console/live?session=${id}`)).json()
    expect(live.status).toBe('SUCCEEDED')
    expect(live.webhooks).toContain('SUCCEEDED')
  })

  it('shows the service refusing a capture of a session that is not FUNDED', async () => {
    const unpaid = (await buy('beanie')).id
    const res = await post(`/console/sessions/${unpaid}/captures`, {
      amount: '1.00',
      final: 'true',
    })
    const location = decodeURIComponent(res.headers.get('location')!)
    expect(location).toContain('error=Capture refused')
    expect(location).toContain('SESSION_NOT_CAPTURABLE')
    const page = await (await get(res.headers.get('location')!)).text()
    expect(page).toContain('SESSION_NOT_CAPTURABLE')
    expect(page).toMatch(/<fieldset\s+disabled/)
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
    fetch(`${demo.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'paysession-signature': signature },
      body: text,
    })

  it('refuses and logs a forged signature', async () => {
    const text = body('evt_forged')
    const res = await deliver(text, signWebhook('whsec_not_the_secret', text))
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
    const old = Math.floor(Date.now() / 1000) - 3600
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
