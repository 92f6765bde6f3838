import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import { api, balances, expectError, start, units, waitUntil } from './helpers.js'

// The strict profile answers as lean as the spec allows; each expectation names the section.
let sb: Sandbox
let call: ReturnType<typeof api>
beforeAll(async () => {
  sb = await start({ profile: 'strict' })
  call = api(sb)
})
afterAll(() => sb?.stop())

const sessionGetFields = [
  'amount',
  'createdAt',
  'currency',
  'fundingTransactionHash',
  'network',
  'oneTimeWalletAddress',
  'paymentSessionId',
  'status',
  'tokenSymbol',
  'userAddress',
  'userSubmittedTransactionHash',
]

async function create(amount = '10.00') {
  const res = await call('POST', '/payment-sessions', {
    auth: sb.apiKey,
    body: { amount, currency: 'USD' },
  })
  expect(res.status).toBe(200)
  return res.json as { paymentSessionId: string; paymentSessionToken: string }
}

const read = async (id: string, token: string) =>
  (await call('GET', `/payment-sessions/${id}`, { auth: token })).json

describe('strict profile', () => {
  test('reports itself', async () => {
    expect(sb.profile).toBe('strict')
    expect((await call('GET', '/sandbox/info', { auth: sb.apiKey })).json.profile).toBe('strict')
  })

  test('an unknown profile is refused before anything starts', async () => {
    await expect(start({ profile: 'lenient' as never })).rejects.toThrow(/unknown profile/)
  })

  test('create answers only the id and the token; the session starts PENDING (2.1, 3.1)', async () => {
    const created = await create()
    expect(Object.keys(created).sort()).toEqual(['paymentSessionId', 'paymentSessionToken'])
    const session = await read(created.paymentSessionId, created.paymentSessionToken)
    expect(Object.keys(session).sort()).toEqual(sessionGetFields)
    expect(session.status).toBe('PENDING')
  })

  test('each operation only under the path form the spec shows (4, 9)', async () => {
    const created = await create()
    const { paymentSessionId: id, paymentSessionToken: token } = created
    const prefixedCreate = await call('POST', '/api/v1/payment-sessions', {
      auth: sb.apiKey,
      body: { amount: '1.00', currency: 'USD' },
    })
    expectError(prefixedCreate, 404, 'NOT_FOUND')
    expectError(await call('GET', `/api/v1/payment-sessions/${id}`, { auth: token }), 404)
    const bareFunding = await call('POST', `/payment-sessions/${id}/funding-transaction`, {
      auth: token,
      body: { fundingTransactionHash: `0x${'1'.repeat(64)}` },
    })
    expectError(bareFunding, 404, 'NOT_FOUND')
    const bareCapture = await call('POST', `/payment-sessions/${id}/captures`, {
      auth: sb.apiKey,
      body: { requestId: 'r', captureAmount: '1.00' },
    })
    expectError(bareCapture, 404, 'NOT_FOUND')
  })

  test('get session takes the session token only, not the API key (5)', async () => {
    const created = await create()
    const res = await call('GET', `/payment-sessions/${created.paymentSessionId}`, {
      auth: sb.apiKey,
    })
    expectError(res, 403, 'FORBIDDEN')
  })

  test('funding-transaction answers 202 with { success } only (4.3)', async () => {
    const created = await create('2.00')
    const hash = await sb.pay(created.paymentSessionId)
    const res = await call(
      'POST',
      `/api/v1/payment-sessions/${created.paymentSessionId}/funding-transaction`,
      { auth: created.paymentSessionToken, body: { fundingTransactionHash: hash } },
    )
    expect(res.status).toBe(202)
    expect(res.json).toEqual({ success: true })
  })

  test('captures: paymentCaptureId, only the 2.2 fields, final flag read only as finalCapture', async () => {
    const created = await create('10.00')
    const { paymentSessionId: id, paymentSessionToken: token } = created
    await sb.pay(id)
    await waitUntil(
      () => read(id, token),
      (s) => s.status === 'FUNDED',
    )
    const customer = sb.customers[0]!.address
    const usdc = sb.tokens.USDC.address
    const balanceOf = balances(sb)
    const before = await balanceOf(usdc, customer)

    // isFinalCapture is not the strict profile's name: this capture is partial.
    const partial = await call('POST', `/api/v1/payment-sessions/${id}/captures`, {
      auth: sb.apiKey,
      body: { requestId: 'p1', captureAmount: '3.00', isFinalCapture: true },
    })
    expect(partial.status).toBe(202)
    expect(Object.keys(partial.json).sort()).toEqual([
      'captureAmount',
      'createdAt',
      'finalCapture',
      'paymentCaptureId',
      'refundAmount',
      'status',
    ])
    expect(partial.json).toMatchObject({ finalCapture: false, refundAmount: '0.00' })
    const got = await waitUntil(
      async () =>
        (
          await call(
            'GET',
            `/api/v1/payment-sessions/${id}/captures/${partial.json.paymentCaptureId}`,
            { auth: sb.apiKey },
          )
        ).json,
      (c) => c.status === 'CAPTURED',
    )
    expect(Object.keys(got).sort()).toEqual([
      'captureAmount',
      'captureTransferTransactionHash',
      'paymentCaptureId',
      'refundAmount',
      'refundTransferTransactionHash',
      'status',
    ])
    await waitUntil(
      () => read(id, token),
      (s) => s.status === 'FUNDED',
    )

    const final = await call('POST', `/api/v1/payment-sessions/${id}/captures`, {
      auth: sb.apiKey,
      body: { requestId: 'f1', captureAmount: '5.00', finalCapture: true },
    })
    expect(final.status).toBe(202)
    expect(final.json).toMatchObject({ finalCapture: true, refundAmount: '2.00' })
    await waitUntil(
      () => read(id, token),
      (s) => s.status === 'SUCCEEDED',
    )
    expect((await balanceOf(usdc, customer)) - before).toBe(units('2.00'))
  })
})
