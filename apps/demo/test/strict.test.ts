import { transferWithAuthorizationTypes } from '@paysession/sandbox'
import { createPaySessionClient } from '@paysession/server'
import { createPublicClient, http, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrderStore } from '../src/server/orders.ts'
import { createSessionReader } from '../src/server/sessions.ts'
import { type Demo, startDemo } from '../src/startDemo.ts'

// The demo against a service that does only what the spec promises (the sandbox's strict
// profile): the API key may not read a session, answers carry only the listed fields. The shop
// reads sessions with each order's own token and lists its own orders.

let demo: Demo
let stopped = false
beforeAll(async () => {
  demo = await startDemo({
    port: 0,
    sandbox: {
      port: 0,
      chainPort: 0,
      quiet: true,
      interval: 50,
      webhookRetryDelay: 50,
      profile: 'strict',
    },
  })
})
afterAll(async () => {
  // The last test stops the sandbox itself: then only the shop's server is left to close.
  await demo?.stop().catch((error: unknown) => {
    if (!stopped) throw error
  })
})

const chain = () => createPublicClient({ transport: http(demo.sandbox.rpcUrl) })
const get = (path: string) => fetch(`${demo.url}${path}`, { redirect: 'manual' })
const post = (path: string, form: Record<string, string>) =>
  fetch(`${demo.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })

async function buy(product: string) {
  const res = await post('/checkout', { product, integration: 'script', cart: crypto.randomUUID() })
  expect(res.status).toBe(303)
  return /\/checkout\/(ps_[0-9a-f]+)$/.exec(res.headers.get('location')!)![1]!
}

async function capture(id: string, amount: string, final: boolean) {
  const page = await (await get('/console')).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
  return post(`/console/sessions/${id}/captures`, { csrf, amount, final: String(final) })
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

describe('the demo against the strict profile', () => {
  it('is a service where the API key cannot read a session', async () => {
    expect(demo.sandbox.profile).toBe('strict')
    const id = await buy('notebook')
    const client = createPaySessionClient({
      apiBase: demo.sandbox.apiUrl,
      apiKey: demo.sandbox.apiKey,
    })
    await expect(client.getSession(id)).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('order page, console, payment, partial and final capture: all from the order’s token', async () => {
    const id = await buy('notebook')
    const order = await get(`/orders/${id}`)
    expect(order.status).toBe(200)
    expect(await order.text()).toContain('data-status="PENDING"')

    let page = await (await get('/console')).text()
    expect(page).toContain(id) // the shop's own list
    expect(page).not.toContain('session-unavailable')

    await demo.sandbox.pay(id)
    await waitFor(async () => (await (await get(`/orders/${id}/live`)).json()).status === 'FUNDED')
    const funded = await waitFor(() =>
      demo.webhooks.entries.find((e) => e.paymentSessionId === id && e.status === 'FUNDED'),
    )
    expect(funded.confirmedStatus).toMatch(/FUNDED|CAPTURING|SUCCEEDED/)

    // The lean answer has no amounts captured: the console works them out from its captures.
    page = await (await get(`/console?session=${id}`)).text()
    expect(page).toMatch(/data-testid="capturable">12\.00</)
    const partial = await capture(id, '5.00', false)
    expect(decodeURIComponent(partial.headers.get('location')!)).toMatch(/notice=Capture cap_/)
    await waitFor(async () => {
      const live = await (await get(`/console/live?session=${id}`)).json()
      return live.status === 'FUNDED' && live.captures[0]?.status === 'CAPTURED'
    })
    page = await (await get(`/console?session=${id}`)).text()
    expect(page).toMatch(/data-testid="capturable">7\.00</)

    await capture(id, '4.00', true)
    const live = await waitFor(async () => {
      const answer = await (await get(`/console/live?session=${id}`)).json()
      return answer.status === 'SUCCEEDED' && answer.captures[1]?.status === 'CAPTURED'
        ? answer
        : undefined
    })
    expect(live.captures).toEqual([
      expect.objectContaining({ captureAmount: '5.00', finalCapture: false }),
      expect.objectContaining({ captureAmount: '4.00', finalCapture: true, refundAmount: '3.00' }),
    ])
    expect(live.closed).toContain('9.00 USDC</strong> captured')
    expect(live.closed).toContain('3.00 USDC</strong> refunded')
    const done = await (await get(`/orders/${id}`)).text()
    expect(done).toContain('data-status="SUCCEEDED">Complete<')
    expect(done).toContain('3.00 USDC refunded')
  })

  it('gasless: the relay reads the session with the order’s token, and submits', async () => {
    const id = await buy('notebook')
    const page = await (await get(`/checkout/${id}`)).text()
    const sessionToken = /session-token="(pst_[0-9a-f]+)"/.exec(page)![1]!
    const client = createPaySessionClient({
      apiBase: demo.sandbox.apiUrl,
      apiKey: demo.sandbox.apiKey,
    })
    const otw = (await client.getSession(id, { sessionToken })).oneTimeWalletAddress!
    const payer = privateKeyToAccount(demo.sandbox.customers[2]!.privateKey)
    const message = {
      from: payer.address,
      to: otw as `0x${string}`,
      value: parseUnits('12', 6),
      validAfter: 0n,
      validBefore: (await chain().getBlock()).timestamp + 600n,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signature = await payer.signTypedData({
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: demo.sandbox.chainId,
        verifyingContract: demo.sandbox.tokens.USDC.address,
      },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const relayed = await fetch(`${demo.url}/relay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        paymentSessionId: id,
        token: 'USDC',
        authorization: Object.fromEntries(
          Object.entries(message).map(([key, value]) => [key, String(value)]),
        ),
        signature,
      }),
    })
    expect(relayed.status).toBe(200)
    await waitFor(async () => (await (await get(`/orders/${id}/live`)).json()).status === 'FUNDED')
  })

  it('an expired token is renewed where the service can; where not, the status is said unknown', async () => {
    const id = await buy('mug')
    const page = await (await get(`/checkout/${id}`)).text()
    const first = /session-token="(pst_[0-9a-f]+)"/.exec(page)![1]!
    demo.sandbox.clock.advance(3600 + 60)
    // The demo renews through the sandbox's extension: still readable.
    expect(await (await get(`/orders/${id}`)).text()).toContain('data-status="PENDING"')

    // A service without renewal (only the spec): the first token has expired, the API key may
    // not read sessions: nothing readable, and the shop says so.
    const client = createPaySessionClient({
      apiBase: demo.sandbox.apiUrl,
      apiKey: demo.sandbox.apiKey,
    })
    const orders = createOrderStore()
    orders.put({
      paymentSessionId: id,
      requestId: 'r',
      productId: 'mug',
      amount: '18.00',
      currency: 'USD',
      integration: 'script',
      sessionToken: first,
      sessionTokenExpiresAt: undefined,
      createdAt: new Date().toISOString(),
    })
    const reader = createSessionReader({ client, orders, renewSessionToken: async () => undefined })
    const read = await reader.read(id)
    expect(read.session).toBeUndefined()
    expect(read.unavailable).toContain('could not be renewed')
  })

  it('when the service is down: the console and the order page say so, no crash', async () => {
    const id = await buy('beanie')
    await demo.sandbox.stop()
    stopped = true
    const order = await get(`/orders/${id}`)
    expect(order.status).toBe(200)
    const text = await order.text()
    expect(text).toContain('Payment status unavailable')
    expect(text).toContain('do not pay again')
    const live = await (await get(`/orders/${id}/live`)).json()
    expect(live.status).toBeNull()
    const console = await get(`/console?session=${id}`)
    expect(console.status).toBe(200)
    const page = await console.text()
    expect(page).toContain('data-testid="session-unavailable"')
    expect(page).toContain('could not be asked')
    expect(page).toContain(id)
  })
})
