import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  api,
  capture,
  createSession,
  fundedSession,
  getSession,
  snapshot,
  start,
  units,
  waitForSession,
} from './helpers.js'

const dataDir = mkdtempSync(join(tmpdir(), 'paysession-sandbox-'))
let sb: Sandbox | undefined
afterAll(async () => {
  await sb?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('stop and start again with the same dataDir: same sessions, statuses, tokens and balances', async () => {
  sb = await start({ dataDir })
  const first = sb
  const payer = sb.customers[1]!
  const funded = (await fundedSession(sb, undefined, { from: payer.privateKey })).created
  const partly = (await fundedSession(sb, { amount: '20.00', currency: 'EUR' })).created
  expect(
    (await capture(sb, partly.paymentSessionId, { requestId: 'p', captureAmount: '3.00' })).status,
  ).toBe(202)
  await waitForSession(sb, partly.paymentSessionId, (s) => s.capturedAmount === '3.00')
  const open = await createSession(sb)
  const under = await createSession(sb, { amount: '5.00', currency: 'USD', requestId: 'under' })
  await sb.pay(under.paymentSessionId, { amount: '1.00', token: 'USDT' })
  await waitForSession(sb, under.paymentSessionId, (s) => s.status === 'PENDING')
  // A capture started just before the stop still completes.
  const last = await capture(sb, funded.paymentSessionId, {
    requestId: 'last',
    captureAmount: '4.00',
  })
  expect(last.status).toBe(202)

  const ids = [funded, partly, open, under].map((s) => s.paymentSessionId)
  const listBefore = (await api(sb)('GET', '/payment-sessions?limit=500', { auth: sb.apiKey })).json
    .data
  const otws = Object.fromEntries(
    [funded, partly, open, under].map((s) => [s.paymentSessionId, s.oneTimeWalletAddress]),
  )
  const owners: Record<string, Address> = { ...otws, treasury: sb.treasury, payer: payer.address }
  await sb.stop()
  sb = undefined

  sb = await start({ dataDir })
  expect(sb.treasury).toBe(first.treasury)
  expect(sb.webhookSecret).toBe(first.webhookSecret)
  expect(sb.apiUrl).not.toBe(first.apiUrl)

  // The capture in flight at the stop finished; everything else is as it was.
  const f = await waitForSession(sb, funded.paymentSessionId, (s) => s.status === 'FUNDED')
  expect(f).toMatchObject({ capturedAmount: '4.00', capturableAmount: '6.00' })
  expect(f.captures.map((c: any) => c.status)).toEqual(['CAPTURED'])
  const listAfter = (await api(sb)('GET', '/payment-sessions?limit=500', { auth: sb.apiKey })).json
    .data
  const norm = (list: any[]) =>
    list.map((s) =>
      s.paymentSessionId === funded.paymentSessionId ? { id: s.paymentSessionId } : s,
    )
  expect(norm(listAfter)).toEqual(norm(listBefore))
  expect(listAfter.map((s: any) => s.status)).toEqual(['PENDING', 'CREATED', 'FUNDED', 'FUNDED'])
  expect(listAfter.map((s: any) => s.paymentSessionId)).toEqual([...ids].reverse())

  // Balances on chain survived the restart.
  const usdc = await snapshot(sb, sb.tokens.USDC.address, owners)
  expect(usdc[funded.paymentSessionId]).toBe(units('6.00'))
  expect(usdc.treasury).toBe(units('4.00'))
  expect(usdc.payer).toBe(units('10000') - units('10.00'))
  const eurc = await snapshot(sb, sb.tokens.EURC.address, owners)
  expect(eurc[partly.paymentSessionId]).toBe(units('17.00'))
  expect(eurc.treasury).toBe(units('3.00'))
  const usdt = await snapshot(sb, sb.tokens.USDT.address, owners)
  expect(usdt[under.paymentSessionId]).toBe(units('1.00'))

  // Session tokens still open their sessions; request ids are still remembered.
  const byToken = await api(sb)('GET', `/payment-sessions/${open.paymentSessionId}`, {
    auth: open.paymentSessionToken,
  })
  expect(byToken.status).toBe(200)
  const replay = await createSession(sb, { amount: '5.00', currency: 'USD', requestId: 'under' })
  expect(replay.paymentSessionId).toBe(under.paymentSessionId)

  // A capture after restart works, with real transfers.
  const res = await capture(sb, partly.paymentSessionId, {
    requestId: 'after',
    captureAmount: '7.00',
    isFinalCapture: true,
  })
  expect(res.status).toBe(202)
  expect(res.json.refundAmount).toBe('10.00')
  await waitForSession(sb, partly.paymentSessionId, (s) => s.status === 'SUCCEEDED')
  const eurc2 = await snapshot(sb, sb.tokens.EURC.address, owners)
  expect(eurc2[partly.paymentSessionId]).toBe(0n)
  expect(eurc2.treasury).toBe(units('10.00'))

  // Payments after restart are still watched, for old and new sessions alike.
  await sb.pay(under.paymentSessionId, { amount: '5.00', token: 'USDT' })
  const u = await waitForSession(sb, under.paymentSessionId, (s) => s.status === 'FUNDED')
  expect(u).toMatchObject({ tokenSymbol: 'USDT', capturableAmount: '6.00' })
  const fresh = await createSession(sb)
  expect(Object.values(otws)).not.toContain(fresh.oneTimeWalletAddress)
  await sb.pay(fresh.paymentSessionId)
  await waitForSession(sb, fresh.paymentSessionId, (s) => s.status === 'FUNDED')
  expect((await getSession(sb, open.paymentSessionId)).status).toBe('CREATED')
})
