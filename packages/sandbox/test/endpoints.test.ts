import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  api,
  capture,
  createSession,
  fundedSession,
  getSession,
  start,
  waitForSession,
} from './helpers.js'

let sb: Sandbox
let call: ReturnType<typeof api>
beforeAll(async () => {
  sb = await start()
  call = api(sb)
})
afterAll(() => sb?.stop())

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const HASH = /^0x[0-9a-f]{64}$/i
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

// Both path forms for every operation (docs/service.md, "Paths").
const PREFIXES = ['', '/api/v1']

const SESSION_FIELDS = [
  'paymentSessionId',
  'amount',
  'currency',
  'network',
  'tokenSymbol',
  'oneTimeWalletAddress',
  'userAddress',
  'fundingTransactionHash',
  'userSubmittedTransactionHash',
  'capturableAmount',
  'capturedAmount',
  'captures',
  'status',
  'createdAt',
]
const CAPTURE_FIELDS = [
  'captureId',
  'paymentCaptureId',
  'status',
  'captureAmount',
  'refundAmount',
  'captureTransferTransactionHash',
  'refundTransferTransactionHash',
  'createdAt',
  'finalCapture',
]

describe.each(PREFIXES)('path form "%s"', (prefix) => {
  test('POST /payment-sessions creates a session with every field of spec 2.1', async () => {
    const res = await call('POST', `${prefix}/payment-sessions`, {
      auth: sb.apiKey,
      body: { amount: '12.5', currency: 'USD' },
    })
    expect(res.status).toBe(200)
    const s = res.json
    for (const f of [...SESSION_FIELDS, 'paymentSessionToken']) expect(s).toHaveProperty(f)
    expect(s.paymentSessionId).toMatch(/^ps_[0-9a-f]{24}$/)
    expect(s.paymentSessionToken).toMatch(/^pst_[0-9a-f]{48}$/)
    expect(s).toMatchObject({
      amount: '12.50',
      currency: 'USD',
      network: 'LOCAL',
      chainId: 31337,
      tokenSymbol: 'USDC',
      acceptedTokens: ['USDC', 'USDT'],
      userAddress: null,
      fundingTransactionHash: null,
      userSubmittedTransactionHash: null,
      receivedAmount: '0.00',
      capturableAmount: '0.00',
      capturedAmount: '0.00',
      captures: [],
      status: 'CREATED',
    })
    expect(s.oneTimeWalletAddress).toMatch(ADDRESS)
    expect(s.createdAt).toMatch(ISO)
    // Funding window 24 h, token lifetime 60 min by default.
    const created = Date.parse(s.createdAt)
    expect(Date.parse(s.expiresAt) - created).toBe(24 * 3600 * 1000)
    expect(Date.parse(s.paymentSessionTokenExpiresAt) - created).toBe(3600 * 1000)
  })

  test('GET /payment-sessions/{id} answers the session to its token and to the API key', async () => {
    const s = await createSession(sb)
    for (const auth of [s.paymentSessionToken, sb.apiKey]) {
      const res = await call('GET', `${prefix}/payment-sessions/${s.paymentSessionId}`, { auth })
      expect(res.status).toBe(200)
      for (const f of SESSION_FIELDS) expect(res.json).toHaveProperty(f)
      expect(res.json.paymentSessionId).toBe(s.paymentSessionId)
      expect(res.json.oneTimeWalletAddress).toBe(s.oneTimeWalletAddress)
      expect(res.json.createdAt).toBe(s.createdAt)
      // The token is handed out once, on create.
      expect(res.json).not.toHaveProperty('paymentSessionToken')
    }
  })

  test('POST /payment-sessions/{id}/funding-transaction records the hash and answers success', async () => {
    const s = await createSession(sb)
    const hash = await sb.pay(s.paymentSessionId)
    const res = await call(
      'POST',
      `${prefix}/payment-sessions/${s.paymentSessionId}/funding-transaction`,
      { auth: s.paymentSessionToken, body: { fundingTransactionHash: hash } },
    )
    expect(res.status).toBe(200)
    expect(res.json.success).toBe(true)
    expect(['PENDING', 'FUNDED']).toContain(res.json.status)
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded.userSubmittedTransactionHash).toBe(hash.toLowerCase())
    expect(funded.fundingTransactionHash).toBe(hash)
    expect(funded.userAddress).toBe(sb.customers[0]!.address)
  })

  test('POST and GET /payment-sessions/{id}/captures[/{captureId}] with every field of spec 2.2', async () => {
    const { created } = await fundedSession(sb)
    const id = created.paymentSessionId
    const res = await capture(sb, id, { requestId: 'r1', captureAmount: '3.5' }, prefix)
    expect(res.status).toBe(202)
    for (const f of CAPTURE_FIELDS) expect(res.json).toHaveProperty(f)
    expect(res.json).toMatchObject({
      status: 'CAPTURING',
      captureAmount: '3.50',
      refundAmount: '0.00',
      finalCapture: false,
    })
    expect(res.json.captureId).toMatch(/^cap_[0-9a-f]{24}$/)
    expect(res.json.paymentCaptureId).toBe(res.json.captureId)
    expect(res.json.createdAt).toMatch(ISO)

    const path = `${prefix}/payment-sessions/${id}/captures/${res.json.captureId}`
    let got = await call('GET', path, { auth: sb.apiKey })
    expect(got.status).toBe(200)
    for (const f of CAPTURE_FIELDS) expect(got.json).toHaveProperty(f)
    const deadline = Date.now() + 15_000
    while (got.json.status !== 'CAPTURED' && Date.now() < deadline)
      got = await call('GET', path, { auth: sb.apiKey })
    expect(got.json).toMatchObject({
      captureId: res.json.captureId,
      status: 'CAPTURED',
      captureAmount: '3.50',
      refundAmount: '0.00',
      refundTransferTransactionHash: null,
    })
    expect(got.json.captureTransferTransactionHash).toMatch(HASH)

    // The session's captures array carries the same capture object.
    const s = await waitForSession(sb, id, (x) => x.status === 'FUNDED')
    expect(s.captures).toEqual([got.json])
    expect(s.capturedAmount).toBe('3.50')
    expect(s.capturableAmount).toBe('6.50')
  })

  test('the capture flag is also accepted under the quickstart name finalCapture', async () => {
    const { created } = await fundedSession(sb)
    const res = await capture(
      sb,
      created.paymentSessionId,
      { requestId: 'q', captureAmount: '10.00', finalCapture: true },
      prefix,
    )
    expect(res.status).toBe(202)
    expect(res.json.finalCapture).toBe(true)
    await waitForSession(sb, created.paymentSessionId, (x) => x.status === 'SUCCEEDED')
  })

  test('GET /payment-sessions lists sessions newest first', async () => {
    const a = await createSession(sb, { amount: '1.00', currency: 'USD' })
    const b = await createSession(sb, { amount: '2.00', currency: 'EUR' })
    const res = await call('GET', `${prefix}/payment-sessions`, { auth: sb.apiKey })
    expect(res.status).toBe(200)
    const ids = res.json.data.map((s: any) => s.paymentSessionId)
    expect(ids.slice(0, 2)).toEqual([b.paymentSessionId, a.paymentSessionId])
    for (const f of SESSION_FIELDS) expect(res.json.data[0]).toHaveProperty(f)
    expect(res.json.data[0]).not.toHaveProperty('paymentSessionToken')
    const limited = await call('GET', `${prefix}/payment-sessions?limit=1`, { auth: sb.apiKey })
    expect(limited.json.data.map((s: any) => s.paymentSessionId)).toEqual([b.paymentSessionId])
  })
})

test('a trailing slash is the same path', async () => {
  const s = await createSession(sb)
  const res = await call('GET', `/api/v1/payment-sessions/${s.paymentSessionId}/`, {
    auth: s.paymentSessionToken,
  })
  expect(res.status).toBe(200)
  expect(res.json.paymentSessionId).toBe(s.paymentSessionId)
})

test('acceptedTokens: USD takes USDC and USDT (USDC by default), EUR takes EURC', async () => {
  const usd = await createSession(sb, { amount: '5.00', currency: 'USD' })
  const eur = await createSession(sb, { amount: '5.00', currency: 'eur' })
  expect(usd).toMatchObject({ tokenSymbol: 'USDC', acceptedTokens: ['USDC', 'USDT'] })
  expect(eur).toMatchObject({ currency: 'EUR', tokenSymbol: 'EURC', acceptedTokens: ['EURC'] })
  // Every session gets its own one-time wallet.
  expect(usd.oneTimeWalletAddress).not.toBe(eur.oneTimeWalletAddress)
  expect((await getSession(sb, eur.paymentSessionId)).acceptedTokens).toEqual(['EURC'])
})

test('amounts are formatted with at least two decimals and no extra trailing zeros', async () => {
  const cases: [string, string][] = [
    ['10', '10.00'],
    ['10.5', '10.50'],
    ['0.01', '0.01'],
    ['1000000000', '1000000000.00'],
  ]
  for (const [input, shown] of cases) {
    const s = await createSession(sb, { amount: input, currency: 'USD' })
    expect(s.amount).toBe(shown)
  }
})

test('GET /sandbox/info tells a merchant the chain facts', async () => {
  const res = await call('GET', '/sandbox/info', { auth: sb.apiKey })
  expect(res.status).toBe(200)
  expect(res.json).toMatchObject({
    apiUrl: sb.apiUrl,
    rpcUrl: sb.rpcUrl,
    chainId: 31337,
    network: 'LOCAL',
    treasury: sb.treasury,
  })
  expect(res.json.tokens.USDC.address).toBe('0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC')
  expect(res.json.tokens.USDT.address).toBe('0x6d741950129e74422fb11ff179C11710c8d2d7CB')
  expect(res.json.tokens.EURC.address).toBe('0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57')
})

describe('the fetch-style handler', () => {
  test('answers in-process exactly as over HTTP: create, read, errors', async () => {
    const inPage = (input: string, init?: RequestInit) =>
      sb.handle(new Request(new URL(input, 'https://in-page.invalid'), init))
    const created = await inPage('/api/v1/payment-sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '3.25', currency: 'USD' }),
    })
    expect(created.status).toBe(200)
    const session = await created.json()
    expect(session.amount).toBe('3.25')
    const overHttp = await call('GET', `/payment-sessions/${session.paymentSessionId}`, {
      auth: session.paymentSessionToken,
    })
    const read = await inPage(`/payment-sessions/${session.paymentSessionId}`, {
      headers: { authorization: `Bearer ${session.paymentSessionToken}` },
    })
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual(overHttp.json)
    const unsupported = await inPage('/payment-sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'text/plain' },
      body: '{}',
    })
    expect(unsupported.status).toBe(415)
    expect((await unsupported.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    const tooLarge = await inPage('/payment-sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    })
    expect(tooLarge.status).toBe(413)
  })
})
