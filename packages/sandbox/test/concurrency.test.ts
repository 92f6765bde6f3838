import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  api,
  capture,
  createSession,
  expectError,
  fundedSession,
  getSession,
  snapshot,
  start,
  units,
  waitForSession,
} from './helpers.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await start()
})
afterAll(() => sb?.stop())

test('concurrent captures can never together exceed the capturable amount', async () => {
  const { created: s } = await fundedSession(sb)
  const id = s.paymentSessionId
  const usdc = sb.tokens.USDC.address
  const b0 = await snapshot(sb, usdc, { treasury: sb.treasury, otw: s.oneTimeWalletAddress })

  let accepted = 0n
  let round = 0
  // Bursts of 8 parallel captures of 3.00 (some final) until the session is done.
  while ((await getSession(sb, id)).status !== 'SUCCEEDED' && round < 8) {
    round++
    const capturableBefore = units((await getSession(sb, id)).capturableAmount)
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        capture(sb, id, { requestId: `r${round}-${i}`, captureAmount: '3.00' }),
      ),
    )
    const ok = burst.filter((r) => r.status === 202)
    for (const r of burst.filter((r) => r.status !== 202))
      expectError(
        r,
        r.status,
        r.status === 409 ? 'SESSION_NOT_CAPTURABLE' : 'AMOUNT_EXCEEDS_CAPTURABLE',
      )
    // Together the accepted ones never exceed what was capturable when the burst started
    // (more than one can get through only if an earlier one completed meanwhile).
    const taken = ok.reduce((sum, r) => sum + units(r.json.captureAmount), 0n)
    expect(taken).toBeLessThanOrEqual(capturableBefore)
    accepted += taken
    expect(accepted).toBeLessThanOrEqual(units('10.00'))
    await waitForSession(sb, id, (x) => x.status !== 'CAPTURING')
    const s2 = await getSession(sb, id)
    if (s2.capturableAmount === '1.00') {
      // 3 × 3.00 taken; the last 1.00 in a burst where every request asks for it.
      const last = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          capture(sb, id, { requestId: `last-${i}`, captureAmount: '1.00', isFinalCapture: true }),
        ),
      )
      expect(last.filter((r) => r.status === 202)).toHaveLength(1)
      accepted += units('1.00')
      await waitForSession(sb, id, (x) => x.status === 'SUCCEEDED')
    }
  }
  const done = await getSession(sb, id)
  expect(done.status).toBe('SUCCEEDED')
  expect(units(done.capturedAmount)).toBe(accepted)
  expect(accepted).toBe(units('10.00'))
  expect(done.captures.every((c: any) => c.status === 'CAPTURED')).toBe(true)
  const b1 = await snapshot(sb, usdc, { treasury: sb.treasury, otw: s.oneTimeWalletAddress })
  expect(b1.treasury - b0.treasury).toBe(accepted)
  expect(b1.otw).toBe(0n)
})

test('concurrent captures over the capturable amount: at most what was paid is taken', async () => {
  const { created: s } = await fundedSession(sb, { amount: '5.00', currency: 'USD' })
  const b0 = await snapshot(sb, sb.tokens.USDC.address, { treasury: sb.treasury })
  const burst = await Promise.all(
    ['4.00', '2.00', '3.00', '5.00', '1.00', '4.50'].map((captureAmount, i) =>
      capture(sb, s.paymentSessionId, { requestId: `o${i}`, captureAmount }),
    ),
  )
  const ok = burst.filter((r) => r.status === 202)
  expect(ok.length).toBeGreaterThanOrEqual(1)
  const taken = ok.reduce((sum, r) => sum + units(r.json.captureAmount), 0n)
  expect(taken).toBeLessThanOrEqual(units('5.00'))
  const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status !== 'CAPTURING')
  expect(units(done.capturedAmount)).toBe(taken)
  expect(units(done.capturedAmount) + units(done.capturableAmount)).toBe(units('5.00'))
  const b1 = await snapshot(sb, sb.tokens.USDC.address, { treasury: sb.treasury })
  expect(b1.treasury - b0.treasury).toBe(taken)
})

test('captures on many sessions at once all settle, each from its own wallet', async () => {
  const sessions = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      createSession(sb, { amount: `${i + 1}.00`, currency: 'USD' }),
    ),
  )
  // Sequential payments from one customer (one nonce sequence), then parallel captures.
  for (const s of sessions) await sb.pay(s.paymentSessionId)
  await Promise.all(
    sessions.map((s) => waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')),
  )
  const usdc = sb.tokens.USDC.address
  const b0 = await snapshot(sb, usdc, { treasury: sb.treasury, payer: sb.customers[0]!.address })
  const res = await Promise.all(
    sessions.map((s, i) =>
      capture(sb, s.paymentSessionId, {
        requestId: 'all',
        captureAmount: `${i + 1}.00`,
        isFinalCapture: i % 2 === 0,
      }),
    ),
  )
  expect(res.map((r) => r.status)).toEqual([202, 202, 202, 202, 202])
  await Promise.all(
    sessions.map((s) => waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')),
  )
  const b1 = await snapshot(sb, usdc, { treasury: sb.treasury, payer: sb.customers[0]!.address })
  expect(b1.treasury - b0.treasury).toBe(units('15.00'))
  expect(b1.payer).toBe(b0.payer)
  for (const s of sessions)
    expect((await snapshot(sb, usdc, { otw: s.oneTimeWalletAddress })).otw).toBe(0n)
})

test('concurrent creates with one requestId make one session', async () => {
  const requestId = crypto.randomUUID()
  const res = await Promise.all(
    Array.from({ length: 10 }, () =>
      api(sb)('POST', '/payment-sessions', {
        auth: sb.apiKey,
        body: { amount: '9.99', currency: 'USD', requestId },
      }),
    ),
  )
  expect(res.map((r) => r.status)).toEqual(Array(10).fill(200))
  expect(new Set(res.map((r) => r.json.paymentSessionId)).size).toBe(1)
  const list = (await api(sb)('GET', '/payment-sessions?limit=500', { auth: sb.apiKey })).json.data
  expect(list.filter((s: any) => s.amount === '9.99')).toHaveLength(1)
})
