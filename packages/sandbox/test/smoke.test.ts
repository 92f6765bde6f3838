import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Sandbox, startSandbox } from '../src/index.js'
import { api, createSession, waitForSession } from './helpers.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(() => sb?.stop())

test('a session is created, paid on chain and becomes FUNDED', async () => {
  const s = await createSession(sb)
  expect(s.status).toBe('CREATED')
  const hash = await sb.pay(s.paymentSessionId)
  const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  expect(funded.fundingTransactionHash).toBe(hash)
  expect(funded.capturableAmount).toBe('10.00')
  const res = await api(sb)('POST', `/api/v1/payment-sessions/${s.paymentSessionId}/captures`, {
    auth: sb.apiKey,
    body: { requestId: 'c1', captureAmount: '4.00', isFinalCapture: true },
  })
  expect(res.status).toBe(202)
  const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
  expect(done.captures[0].status).toBe('CAPTURED')
  expect(done.captures[0].refundAmount).toBe('6.00')
})
