import { afterAll, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import { api, capture, createSession, sleep, start, waitForSession, waitUntil } from './helpers.js'
import { receiver } from './receiver.js'

// Delivery with the defaults (retried with doubling delays capped at 5 minutes, for 24 hours),
// with the receiver down for ten minutes and more: the sandbox's clock stands in for the hours.
const hooks = receiver()
let sb: Sandbox | undefined
afterAll(async () => {
  await sb?.stop()
  await hooks.down()
})

const MINUTE = 60

/** Moves the sandbox's clock on in steps, letting the delivery worker run between them. */
async function pass(seconds: number, step = 30) {
  for (let done = 0; done < seconds; done += step) {
    sb!.clock.advance(Math.min(step, seconds - done))
    await sleep(120)
  }
}

test('a receiver down for ten minutes gets every update afterwards, in order per session; the backlog shows them meanwhile', async () => {
  sb = await start({ webhookUrl: await hooks.url(), webhookSecret: 'whsec_backlog' })
  // The receiver is down: three sessions go through their lives meanwhile.
  const paid = await createSession(sb)
  const captured = await createSession(sb)
  const waiting = await createSession(sb)
  await sb.pay(paid.paymentSessionId, { amount: '4.00' })
  await waitForSession(sb, paid.paymentSessionId, (s) => s.status === 'PENDING')
  await sb.pay(paid.paymentSessionId, { amount: '6.00' })
  await waitForSession(sb, paid.paymentSessionId, (s) => s.status === 'FUNDED')
  await sb.pay(captured.paymentSessionId)
  await waitForSession(sb, captured.paymentSessionId, (s) => s.status === 'FUNDED')
  await capture(sb, captured.paymentSessionId, {
    requestId: 'all',
    captureAmount: '10.00',
    isFinalCapture: true,
  })
  await waitForSession(sb, captured.paymentSessionId, (s) => s.status === 'SUCCEEDED')

  await pass(10 * MINUTE)
  const backlog = sb.webhookBacklog()
  expect(backlog).toMatchObject({ waiting: 8, sessions: 3, failed: 0 })
  expect(backlog.lastError).toMatch(/fetch failed|ECONNREFUSED/i)
  const bySession = Object.fromEntries(
    backlog.bySession.map((s) => [s.paymentSessionId, s.statuses]),
  )
  expect(bySession).toEqual({
    [paid.paymentSessionId]: ['CREATED', 'PENDING', 'FUNDED'],
    [captured.paymentSessionId]: ['CREATED', 'FUNDED', 'CAPTURING', 'SUCCEEDED'],
    [waiting.paymentSessionId]: ['CREATED'],
  })
  // Retried all along, never more than the cap apart: 0.5 s doubling to 5 minutes.
  const firstAttempts = backlog.bySession.map((s) => s.attempts)
  for (const attempts of firstAttempts) expect(attempts).toBeGreaterThanOrEqual(8)
  expect(Date.parse(backlog.nextAttemptAt!) - sb.clock.now()).toBeLessThanOrEqual(5 * MINUTE * 1000)
  // The same over the API the demo console reads.
  const overApi = await api(sb)('GET', '/sandbox/webhooks/backlog', { auth: sb.apiKey })
  expect(overApi.json).toMatchObject({ waiting: 8, sessions: 3 })
  expect(hooks.acked).toEqual([])

  // Hours later it is still trying (the default window is 24 hours).
  sb.clock.advance(3 * 60 * MINUTE)
  await sleep(300)
  expect(sb.webhookBacklog()).toMatchObject({ waiting: 8, failed: 0 })

  // Back up: within the capped delay, every update arrives, each session's in order.
  await hooks.up()
  await pass(5 * MINUTE, 60)
  // Delivered is when the sandbox has recorded each answer, a moment after the receiver acked.
  await waitUntil(
    async () => sb!.webhookBacklog().waiting,
    (n) => n === 0,
    15_000,
    'the backlog delivered',
  )
  expect(hooks.statuses(paid.paymentSessionId)).toEqual(['CREATED', 'PENDING', 'FUNDED'])
  expect(hooks.statuses(captured.paymentSessionId)).toEqual([
    'CREATED',
    'FUNDED',
    'CAPTURING',
    'SUCCEEDED',
  ])
  expect(hooks.statuses(waiting.paymentSessionId)).toEqual(['CREATED'])
  // Each once: nothing after it was acknowledged went again.
  expect(hooks.acked).toHaveLength(8)
  expect(sb.webhookBacklog()).toMatchObject({ waiting: 0, sessions: 0, nextAttemptAt: null })
})

test('after the retry window a delivery is given up, and the later updates of its session go out', async () => {
  await hooks.down()
  const s = await createSession(sb!)
  await pass(2 * MINUTE)
  expect(sb!.webhookBacklog().bySession).toEqual([
    { paymentSessionId: s.paymentSessionId, statuses: ['CREATED'], attempts: expect.any(Number) },
  ])
  // A day later the session expires while CREATED still waits; CREATED is then given up.
  sb!.clock.advance(24 * 60 * MINUTE + 1)
  await waitForSession(sb!, s.paymentSessionId, (x) => x.status === 'CANCELED')
  await waitUntil(
    async () => sb!.webhookBacklog(),
    (b) => b.failed === 1,
    10_000,
    'CREATED given up',
  )
  await hooks.up()
  await pass(5 * MINUTE, 60)
  await waitUntil(
    async () => hooks.statuses(s.paymentSessionId),
    (st) => st.length >= 1,
    10_000,
    'CANCELED delivered',
  )
  // CANCELED went out; CREATED, given up, never arrives after it.
  await pass(10 * MINUTE, 60)
  expect(hooks.statuses(s.paymentSessionId)).toEqual(['CANCELED'])
})
