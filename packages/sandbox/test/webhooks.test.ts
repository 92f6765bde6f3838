import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  api,
  capture,
  createSession,
  fundedSession,
  start,
  waitForSession,
  waitUntil,
} from './helpers.js'

const SECRET = 'whsec_test_secret'
const BASE_DELAY = 100
const MAX_ATTEMPTS = 4

interface Received {
  at: number
  headers: IncomingHttpHeaders
  raw: string
  body: any
  /** What the receiver answered: true when it acknowledged. */
  acked: boolean
}

/** How the receiver answers one request; the default acknowledges. */
type Answer = (body: any, attempt: number) => { status: number; text: string }
const ACK = (body: any) => ({
  status: 200,
  text: JSON.stringify({ jsonrpc: '2.0', id: body?.id, result: 'ok' }),
})

const received: Received[] = []
let answer: Answer = ACK
let server: Server
let sb: Sandbox
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', () => {
      let body: any
      try {
        body = JSON.parse(raw)
      } catch {
        body = undefined
      }
      const attempt = received.filter((r) => r.body?.id === body?.id).length + 1
      const out = answer(body, attempt)
      const acked = out.status === 200 && out.text === ACK(body).text
      received.push({ at: Date.now(), headers: req.headers, raw, body, acked })
      res.writeHead(out.status, { 'content-type': 'application/json' })
      res.end(out.text)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  sb = await start({
    webhookUrl: url,
    webhookSecret: SECRET,
    webhookMaxAttempts: MAX_ATTEMPTS,
    webhookRetryDelay: BASE_DELAY,
  })
})
afterAll(async () => {
  await sb?.stop()
  await new Promise((r) => server?.close(r))
})
beforeEach(() => {
  answer = ACK
})

const forSession = (id: string) =>
  received.filter((r) => r.body?.params?.[0]?.paymentSessionId === id)
const statuses = (rs: Received[]) => rs.map((r) => r.body.params[0].status)
const acked = (id: string) => forSession(id).filter((r) => r.acked)

/** The sandbox's own delivery log for one session, oldest first. */
async function webhookLog(id: string) {
  const log = await api(sb)('GET', '/sandbox/webhooks', { auth: sb.apiKey })
  return log.json.data.filter((w: any) => w.paymentSessionId === id).reverse()
}

function waitDelivered(id: string, count: number, timeoutMs = 15_000) {
  return waitUntil(
    async () => acked(id),
    (rs) => rs.length >= count,
    timeoutMs,
    `${count} deliveries for ${id}`,
  )
}

test('every status change is a signed JSON-RPC 2.0 paysession_paymentStatusUpdate, in order', async () => {
  const s = await createSession(sb)
  const id = s.paymentSessionId
  await sb.pay(id, { amount: '4.00' })
  await waitForSession(sb, id, (x) => x.status === 'PENDING')
  await sb.pay(id, { amount: '6.00' })
  await waitForSession(sb, id, (x) => x.status === 'FUNDED')
  expect((await capture(sb, id, { requestId: 'a', captureAmount: '3.00' })).status).toBe(202)
  await waitForSession(sb, id, (x) => x.status === 'FUNDED' && x.capturedAmount === '3.00')
  expect(
    (await capture(sb, id, { requestId: 'b', captureAmount: '3.00', isFinalCapture: true })).status,
  ).toBe(202)
  await waitForSession(sb, id, (x) => x.status === 'SUCCEEDED')

  const expected = ['CREATED', 'PENDING', 'FUNDED', 'CAPTURING', 'FUNDED', 'CAPTURING', 'SUCCEEDED']
  const got = await waitDelivered(id, expected.length)
  expect(statuses(got)).toEqual(expected)
  // Nothing failed, so nothing was sent twice.
  expect(forSession(id)).toHaveLength(expected.length)

  const ids = new Set<string>()
  let lastUpdated = 0
  for (const r of got) {
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    expect(r.body).toEqual({
      jsonrpc: '2.0',
      id: expect.stringMatching(/^evt_[0-9a-f]+$/),
      method: 'paysession_paymentStatusUpdate',
      params: [
        {
          merchantId: sb.merchantId,
          paymentSessionId: id,
          status: expect.any(String),
          updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
      ],
    })
    ids.add(r.body.id)
    const updated = Date.parse(r.body.params[0].updatedAt)
    expect(updated).toBeGreaterThanOrEqual(lastUpdated)
    lastUpdated = updated

    // Paysession-Signature: t=<unix seconds>,v1=HMAC-SHA256(secret, "<t>.<raw body>")
    const header = r.headers['paysession-signature']
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    const { t, v1 } = Object.fromEntries(
      String(header)
        .split(',')
        .map((kv) => kv.split('=') as [string, string]),
    )
    const mac = createHmac('sha256', SECRET).update(`${t}.${r.raw}`).digest()
    expect(timingSafeEqual(mac, Buffer.from(v1!, 'hex'))).toBe(true)
    expect(Math.abs(Number(t) - r.at / 1000)).toBeLessThan(300)
    // A receiver with the wrong secret, or a tampered body, would reject it.
    const forged = createHmac('sha256', 'other').update(`${t}.${r.raw}`).digest()
    expect(timingSafeEqual(forged, Buffer.from(v1!, 'hex'))).toBe(false)
    const tampered = createHmac('sha256', SECRET)
      .update(`${t}.${r.raw.replace(r.body.params[0].status, 'SUCCEEDED_')}`)
      .digest()
    expect(timingSafeEqual(tampered, Buffer.from(v1!, 'hex'))).toBe(false)
  }
  expect(ids.size).toBe(expected.length)
})

test('a 500 or a wrong acknowledgement is retried with backoff under the same id', async () => {
  const bad = [
    { status: 500, text: '{"error":"down"}' },
    { status: 200, text: JSON.stringify({ jsonrpc: '2.0', result: 'nope' }) },
    { status: 200, text: 'ok' },
  ]
  let target: string | undefined
  answer = (body, attempt) => {
    if (!target && body.params[0].status === 'CREATED') target = body.id
    if (body.id === target && attempt <= bad.length) return bad[attempt - 1]!
    return ACK(body)
  }
  const s = await createSession(sb)
  const [delivered] = await waitDelivered(s.paymentSessionId, 1)
  const attempts = forSession(s.paymentSessionId).filter((r) => r.body.id === target)
  expect(attempts).toHaveLength(bad.length + 1)
  expect(delivered!.body.id).toBe(target)
  // The same delivery each time: same id, same body.
  for (const a of attempts) expect(a.body).toEqual(attempts[0]!.body)
  // Exponential backoff: about 100, 200, 400 ms between attempts.
  const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at)
  for (const [i, gap] of gaps.entries())
    expect(gap).toBeGreaterThanOrEqual(BASE_DELAY * 2 ** i - 20)
  expect(gaps[2]!).toBeGreaterThan(gaps[0]!)
  // The sandbox's own log shows it delivered after 4 attempts.
  const log = await api(sb)('GET', '/sandbox/webhooks', { auth: sb.apiKey })
  expect(log.json.data.find((w: any) => w.id === target)).toMatchObject({
    state: 'DELIVERED',
    attempts: 4,
  })
})

test('a receiver that is down: retried until it comes back', async () => {
  // Point the sandbox at a port nobody listens on, then back.
  const closed = createServer()
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
  const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise((r) => closed.close(r))
  const good = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  sb.setWebhookUrl(deadUrl)
  let s: Awaited<ReturnType<typeof createSession>>
  try {
    s = await createSession(sb)
    // Two attempts have failed (connection refused).
    await waitUntil(
      () => webhookLog(s.paymentSessionId),
      (ws) => ws[0]?.attempts >= 2,
      10_000,
      'failed attempts',
    )
  } finally {
    sb.setWebhookUrl(good)
  }
  const [got] = await waitDelivered(s.paymentSessionId, 1)
  expect(statuses([got!])).toEqual(['CREATED'])
  const [entry] = await webhookLog(s.paymentSessionId)
  expect(entry).toMatchObject({ id: got!.body.id, state: 'DELIVERED' })
  expect(entry.attempts).toBeGreaterThanOrEqual(3)
  expect(entry.lastError).toBeNull()
})

test('updates for one session keep their order while the first one fails; other sessions go on', async () => {
  let head: string | undefined
  answer = (body, attempt) => {
    if (!head && body.params[0].status === 'CREATED') head = body.id
    if (body.id === head && attempt <= 2) return { status: 500, text: 'later' }
    return ACK(body)
  }
  const s = await createSession(sb)
  const other = await createSession(sb)
  // FUNDED happens while CREATED is still failing.
  await sb.pay(s.paymentSessionId)
  await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  await capture(sb, s.paymentSessionId, {
    requestId: 'x',
    captureAmount: '10.00',
    isFinalCapture: true,
  })
  await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')

  const got = await waitDelivered(s.paymentSessionId, 4)
  expect(statuses(got)).toEqual(['CREATED', 'FUNDED', 'CAPTURING', 'SUCCEEDED'])
  // Every request for this session, failed ones included: none overtook the failing head.
  const all = forSession(s.paymentSessionId)
  expect(statuses(all)).toEqual([
    'CREATED',
    'CREATED',
    'CREATED',
    'FUNDED',
    'CAPTURING',
    'SUCCEEDED',
  ])
  expect(new Set(all.slice(0, 3).map((r) => r.body.id)).size).toBe(1)
  // The other session's update was not held up by this one's failures.
  const [otherCreated] = await waitDelivered(other.paymentSessionId, 1)
  expect(otherCreated!.at).toBeLessThan(got[0]!.at)
})

test(`a delivery is given up after ${MAX_ATTEMPTS} attempts and the next one goes out`, async () => {
  let doomed: string | undefined
  answer = (body) => {
    if (!doomed && body.params[0].status === 'CREATED') doomed = body.id
    if (body.id === doomed) return { status: 503, text: 'no' }
    return ACK(body)
  }
  const { created: s } = await fundedSession(sb)
  const got = await waitDelivered(s.paymentSessionId, 1)
  expect(statuses(got)).toEqual(['FUNDED'])
  const tries = forSession(s.paymentSessionId).filter((r) => r.body.id === doomed)
  expect(tries).toHaveLength(MAX_ATTEMPTS)
  // No further attempt later.
  await new Promise((r) => setTimeout(r, BASE_DELAY * 2 ** MAX_ATTEMPTS))
  expect(forSession(s.paymentSessionId).filter((r) => r.body.id === doomed)).toHaveLength(
    MAX_ATTEMPTS,
  )
  const log = await api(sb)('GET', '/sandbox/webhooks', { auth: sb.apiKey })
  expect(log.json.data.find((w: any) => w.id === doomed)).toMatchObject({
    state: 'FAILED',
    attempts: MAX_ATTEMPTS,
    lastError: expect.stringContaining('503'),
  })
})

test('expiry is delivered as CANCELED', async () => {
  const s = await createSession(sb)
  await waitDelivered(s.paymentSessionId, 1)
  sb.clock.advance(24 * 3600 + 1)
  await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'CANCELED')
  const got = await waitDelivered(s.paymentSessionId, 2)
  expect(statuses(got)).toEqual(['CREATED', 'CANCELED'])
  expect(Date.parse(got[1]!.body.params[0].updatedAt)).toBeGreaterThan(Date.now() + 23 * 3600_000)
})
