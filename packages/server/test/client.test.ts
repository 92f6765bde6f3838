import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPaySessionClient,
  type PaySessionClient,
  PaySessionError,
  waitForCapture,
} from '../src/index.js'
import { tokenBalance, until } from './helpers.js'

let sb: Sandbox
let client: PaySessionClient

beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
})
afterAll(() => sb?.stop())

async function failure(promise: Promise<unknown>): Promise<PaySessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PaySessionError)
  return error as PaySessionError
}

async function fundedSession(amount = '10.00') {
  const created = await client.createSession({ amount, currency: 'USD' })
  await sb.pay(created.paymentSessionId)
  await until(
    () => client.getSession(created.paymentSessionId),
    (s) => s.status === 'FUNDED',
  )
  return created
}

describe('sessions against the sandbox', () => {
  it('creates a session with a generated requestId', async () => {
    const created = await client.createSession({ amount: '12.50', currency: 'USD' })
    expect(created.paymentSessionId).toMatch(/^ps_[0-9a-f]{24}$/)
    expect(created.paymentSessionToken).toMatch(/^pst_/)
    expect(['CREATED', 'PENDING']).toContain(created.status)
    expect(created).toMatchObject({
      amount: '12.50',
      currency: 'USD',
      network: 'LOCAL',
      tokenSymbol: 'USDC',
    })
    expect(created.oneTimeWalletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('replays the same session for the same requestId', async () => {
    const requestId = crypto.randomUUID()
    const first = await client.createSession({ amount: '3.00', currency: 'USD', requestId })
    const again = await client.createSession({ amount: '3.00', currency: 'USD', requestId })
    expect(again.paymentSessionId).toBe(first.paymentSessionId)
  })

  it('gets a session with the API key and with its session token', async () => {
    const created = await client.createSession({ amount: '7.00', currency: 'EUR' })
    const byKey = await client.getSession(created.paymentSessionId)
    expect(byKey).toMatchObject({
      paymentSessionId: created.paymentSessionId,
      status: 'CREATED',
      amount: '7.00',
      currency: 'EUR',
      tokenSymbol: 'EURC',
      userAddress: null,
      fundingTransactionHash: null,
    })
    const byToken = await client.getSession(created.paymentSessionId, {
      sessionToken: created.paymentSessionToken,
    })
    expect(byToken.paymentSessionId).toBe(created.paymentSessionId)
  })

  it('lists sessions newest first', async () => {
    const older = await client.createSession({ amount: '1.00', currency: 'USD' })
    const newer = await client.createSession({ amount: '2.00', currency: 'USD' })
    const list = await client.listSessions()
    const ids = list.map((s) => s.paymentSessionId)
    expect(ids).toContain(older.paymentSessionId)
    expect(ids.indexOf(newer.paymentSessionId)).toBeLessThan(ids.indexOf(older.paymentSessionId))
  })

  it('works with a base URL that ends in /api/v1', async () => {
    const prefixed = createPaySessionClient({ apiBase: `${sb.apiUrl}/api/v1`, apiKey: sb.apiKey })
    const created = await prefixed.createSession({ amount: '4.00', currency: 'USD' })
    expect((await prefixed.getSession(created.paymentSessionId)).amount).toBe('4.00')
  })

  it('reports the service errors with their codes', async () => {
    expect(await failure(client.getSession('ps_000000000000000000000000'))).toMatchObject({
      code: 'SESSION_NOT_FOUND',
      status: 404,
    })
    // Well-formed, but more minor units than USD has: only the service knows.
    expect(await failure(client.createSession({ amount: '1.001', currency: 'USD' }))).toMatchObject(
      { code: 'INVALID_AMOUNT', status: 422 },
    )
    expect(await failure(client.createSession({ amount: '1.00', currency: 'JPY' }))).toMatchObject({
      code: 'UNSUPPORTED_CURRENCY',
      status: 422,
    })
  })

  it('a wrong API key is UNAUTHORIZED on every call', async () => {
    const wrong = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: 'sk_wrong' })
    const existing = await client.createSession({ amount: '1.00', currency: 'USD' })
    const calls = () => [
      wrong.createSession({ amount: '1.00', currency: 'USD' }),
      wrong.getSession(existing.paymentSessionId),
      wrong.listSessions(),
      wrong.createCapture(existing.paymentSessionId, { captureAmount: '1.00' }),
      wrong.getCapture(existing.paymentSessionId, 'cap_000000000000000000000000'),
    ]
    for (const error of await Promise.all(calls().map(failure))) {
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
      expect(error.shortMessage).toBe('The API key is missing or not recognised.')
    }
  })
})

describe('captures against the sandbox', () => {
  it('refuses to capture a session that is not funded', async () => {
    const created = await client.createSession({ amount: '5.00', currency: 'USD' })
    expect(
      await failure(client.createCapture(created.paymentSessionId, { captureAmount: '1.00' })),
    ).toMatchObject({ code: 'SESSION_NOT_CAPTURABLE', status: 409 })
  })

  it('captures partially, then finally with a refund, and moves the tokens on chain', async () => {
    const created = await fundedSession('10.00')
    const id = created.paymentSessionId
    const usdc = sb.tokens.USDC.address
    const treasuryBefore = await tokenBalance(sb.rpcUrl, usdc, sb.treasury)
    const customer = sb.customers[0]!.address
    const customerBefore = await tokenBalance(sb.rpcUrl, usdc, customer)

    expect(await failure(client.createCapture(id, { captureAmount: '10.01' }))).toMatchObject({
      code: 'AMOUNT_EXCEEDS_CAPTURABLE',
    })

    const partial = await client.createCapture(id, { captureAmount: '4.00' })
    expect(partial).toMatchObject({
      status: 'CAPTURING',
      captureAmount: '4.00',
      refundAmount: '0.00',
    })
    expect(partial.captureId).toMatch(/^cap_/)

    // Same requestId replays the same capture; a different body is a conflict.
    const replay = await client.createCapture(id, {
      captureAmount: '4.00',
      requestId: partial.requestId,
    })
    expect(replay.captureId).toBe(partial.captureId)
    expect(
      await failure(
        client.createCapture(id, { captureAmount: '5.00', requestId: partial.requestId }),
      ),
    ).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', status: 409 })

    const captured = await waitForCapture(client, id, partial.captureId, {
      interval: 100,
      timeout: 20_000,
    })
    expect(captured.status).toBe('CAPTURED')
    expect(captured.captureTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(captured.refundTransferTransactionHash).toBeNull()

    const afterPartial = await until(
      () => client.getSession(id),
      (s) => s.status === 'FUNDED',
    )
    expect(afterPartial).toMatchObject({ capturableAmount: '6.00', capturedAmount: '4.00' })
    expect(afterPartial.captures?.map((c) => c.captureId)).toEqual([partial.captureId])

    const final = await client.createCapture(id, { captureAmount: '5.00', isFinalCapture: true })
    expect(final).toMatchObject({ status: 'CAPTURING', refundAmount: '1.00', finalCapture: true })

    // get capture, read until CAPTURED
    const done = await until(
      () => client.getCapture(id, final.captureId),
      (c) => c.status !== 'CAPTURING',
    )
    expect(done).toMatchObject({ status: 'CAPTURED', captureAmount: '5.00', refundAmount: '1.00' })
    expect(done.refundTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)

    const settled = await until(
      () => client.getSession(id),
      (s) => s.status === 'SUCCEEDED',
    )
    expect(settled.capturedAmount).toBe('9.00')
    expect(
      Number(await tokenBalance(sb.rpcUrl, usdc, sb.treasury)) - Number(treasuryBefore),
    ).toBeCloseTo(9, 6)
    expect(
      Number(await tokenBalance(sb.rpcUrl, usdc, customer)) - Number(customerBefore),
    ).toBeCloseTo(1, 6)

    expect(await failure(client.createCapture(id, { captureAmount: '0.50' }))).toMatchObject({
      code: 'SESSION_NOT_CAPTURABLE',
    })
  })

  it('an unknown capture is CAPTURE_NOT_FOUND', async () => {
    const created = await client.createSession({ amount: '1.00', currency: 'USD' })
    expect(
      await failure(client.getCapture(created.paymentSessionId, 'cap_000000000000000000000000')),
    ).toMatchObject({ code: 'CAPTURE_NOT_FOUND', status: 404 })
  })
})
