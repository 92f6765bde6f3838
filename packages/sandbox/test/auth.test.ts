import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  type ApiResponse,
  api,
  createSession,
  expectError,
  fundedSession,
  getSession,
  type SessionJson,
  start,
  waitForSession,
} from './helpers.js'

const TTL = 600
let sb: Sandbox
let call: ReturnType<typeof api>
let a: SessionJson
let b: SessionJson
let capId: string
let fundingHash: string
beforeAll(async () => {
  sb = await start({ tokenTtlSeconds: TTL })
  call = api(sb)
  const funded = await fundedSession(sb)
  a = funded.created
  fundingHash = funded.hash
  b = await createSession(sb)
  const c = await call('POST', `/api/v1/payment-sessions/${a.paymentSessionId}/captures`, {
    auth: sb.apiKey,
    body: { requestId: 'auth-cap', captureAmount: '1.00' },
  })
  expect(c.status).toBe(202)
  capId = c.json.captureId
  await waitForSession(sb, a.paymentSessionId, (x) => x.status === 'FUNDED')
})
afterAll(() => sb?.stop())

/** Every endpoint, with a valid body where it takes one. */
const endpoints = () => [
  {
    name: 'create session',
    method: 'POST',
    path: '/api/v1/payment-sessions',
    body: { amount: '1.00', currency: 'USD' },
  },
  { name: 'list sessions', method: 'GET', path: '/api/v1/payment-sessions' },
  { name: 'get session', method: 'GET', path: `/payment-sessions/${a.paymentSessionId}` },
  {
    name: 'funding transaction',
    method: 'POST',
    path: `/api/v1/payment-sessions/${a.paymentSessionId}/funding-transaction`,
    body: { fundingTransactionHash: fundingHash },
  },
  {
    name: 'create capture',
    method: 'POST',
    path: `/api/v1/payment-sessions/${a.paymentSessionId}/captures`,
    body: { requestId: 'never', captureAmount: '1.00' },
  },
  {
    name: 'get capture',
    method: 'GET',
    path: `/api/v1/payment-sessions/${a.paymentSessionId}/captures/${capId}`,
  },
]

/** No session data of any kind leaks into an error. */
function expectNoData(res: ApiResponse) {
  const text = JSON.stringify(res.json)
  for (const secret of [
    a.paymentSessionToken,
    b.paymentSessionToken,
    a.oneTimeWalletAddress,
    fundingHash,
    capId,
    'capturableAmount',
  ])
    expect(text).not.toContain(secret)
}

async function sessionsUnchanged(run: () => Promise<void>) {
  const before = await Promise.all([a, b].map((s) => getSession(sb, s.paymentSessionId)))
  const count = (await call('GET', '/api/v1/payment-sessions?limit=500', { auth: sb.apiKey })).json
    .data.length
  await run()
  const after = await Promise.all([a, b].map((s) => getSession(sb, s.paymentSessionId)))
  expect(after).toEqual(before)
  const countAfter = (await call('GET', '/api/v1/payment-sessions?limit=500', { auth: sb.apiKey }))
    .json.data.length
  expect(countAfter).toBe(count)
}

describe('missing or unknown credential: 401 UNAUTHORIZED', () => {
  const variants: [string, () => Record<string, string>][] = [
    ['no header', () => ({})],
    ['empty bearer', () => ({ authorization: 'Bearer ' })],
    ['basic scheme', () => ({ authorization: `Basic ${Buffer.from('x:y').toString('base64')}` })],
    ['unknown key', () => ({ authorization: 'Bearer sk_live_nope' })],
    [
      'the fixed key older sandboxes had',
      () => ({ authorization: 'Bearer sk_sandbox_paysession' }),
    ],
    ['API key without scheme', () => ({ authorization: sb.apiKey })],
    ['made-up session token', () => ({ authorization: `Bearer pst_${'0'.repeat(48)}` })],
  ]
  test.each(variants)('%s', async (_, headersOf) => {
    await sessionsUnchanged(async () => {
      for (const e of endpoints()) {
        const res = await call(e.method, e.path, { headers: headersOf(), body: e.body })
        expectError(res, 401, 'UNAUTHORIZED')
        expectNoData(res)
      }
    })
  })
})

test('without a credential, a bad body is still a 401: credentials are checked first', async () => {
  for (const path of [
    '/api/v1/payment-sessions',
    `/api/v1/payment-sessions/${a.paymentSessionId}/captures`,
    `/api/v1/payment-sessions/${b.paymentSessionId}/funding-transaction`,
  ]) {
    expectError(await call('POST', path, { raw: '{not json' }), 401, 'UNAUTHORIZED')
    expectError(
      await call('POST', path, { raw: 'x', contentType: 'text/plain' }),
      401,
      'UNAUTHORIZED',
    )
  }
})

test('a session token on merchant endpoints: 403 FORBIDDEN', async () => {
  await sessionsUnchanged(async () => {
    for (const e of endpoints().filter((e) =>
      ['create session', 'list sessions', 'create capture', 'get capture'].includes(e.name),
    )) {
      const res = await call(e.method, e.path, { auth: a.paymentSessionToken, body: e.body })
      expectError(res, 403, 'FORBIDDEN')
      expectNoData(res)
    }
  })
})

test('the API key on the funding-transaction endpoint: 403 FORBIDDEN', async () => {
  await sessionsUnchanged(async () => {
    const res = await call(
      'POST',
      `/api/v1/payment-sessions/${b.paymentSessionId}/funding-transaction`,
      { auth: sb.apiKey, body: { fundingTransactionHash: fundingHash } },
    )
    expectError(res, 403, 'FORBIDDEN')
    expectNoData(res)
  })
  expect((await getSession(sb, b.paymentSessionId)).status).toBe('CREATED')
})

test("another session's token: 403 FORBIDDEN on get and funding, even for an unknown id", async () => {
  await sessionsUnchanged(async () => {
    for (const res of [
      await call('GET', `/payment-sessions/${a.paymentSessionId}`, { auth: b.paymentSessionToken }),
      await call('GET', `/api/v1/payment-sessions/${b.paymentSessionId}`, {
        auth: a.paymentSessionToken,
      }),
      await call('POST', `/api/v1/payment-sessions/${b.paymentSessionId}/funding-transaction`, {
        auth: a.paymentSessionToken,
        body: { fundingTransactionHash: fundingHash },
      }),
      await call('GET', `/payment-sessions/ps_${'f'.repeat(24)}`, { auth: a.paymentSessionToken }),
    ]) {
      expectError(res, 403, 'FORBIDDEN')
      expectNoData(res)
    }
  })
})

test('an expired session token: 401 SESSION_TOKEN_EXPIRED; the API key still reads the session', async () => {
  const fresh = await createSession(sb)
  const get = () =>
    call('GET', `/api/v1/payment-sessions/${fresh.paymentSessionId}`, {
      auth: fresh.paymentSessionToken,
    })
  expect((await get()).status).toBe(200)
  expect(Date.parse(fresh.paymentSessionTokenExpiresAt) - Date.parse(fresh.createdAt)).toBe(
    TTL * 1000,
  )
  sb.clock.advance(TTL - 5)
  expect((await get()).status).toBe(200)
  sb.clock.advance(10)
  const res = await get()
  expectError(res, 401, 'SESSION_TOKEN_EXPIRED')
  expect(JSON.stringify(res.json)).not.toContain(fresh.oneTimeWalletAddress)
  const report = await call(
    'POST',
    `/payment-sessions/${fresh.paymentSessionId}/funding-transaction`,
    { auth: fresh.paymentSessionToken, body: { fundingTransactionHash: fundingHash } },
  )
  expectError(report, 401, 'SESSION_TOKEN_EXPIRED')
  // Nothing was recorded by the refused report; the merchant still sees the session.
  const s = await getSession(sb, fresh.paymentSessionId)
  expect(s.status).toBe('CREATED')
  expect(s.userSubmittedTransactionHash).toBeNull()
  // A session token expiring does not end the session: a new one is still issued to new sessions.
  const other = await createSession(sb)
  expect(
    (
      await call('GET', `/payment-sessions/${other.paymentSessionId}`, {
        auth: other.paymentSessionToken,
      })
    ).status,
  ).toBe(200)
})

test('the bearer scheme is case-insensitive and the credential is exact', async () => {
  const ok = await call('GET', '/api/v1/payment-sessions', {
    headers: { authorization: `bearer ${sb.apiKey}` },
  })
  expect(ok.status).toBe(200)
  const upper = await call('GET', '/api/v1/payment-sessions', {
    headers: { authorization: `Bearer ${sb.apiKey.toUpperCase()}` },
  })
  expectError(upper, 401, 'UNAUTHORIZED')
  const prefix = await call('GET', '/api/v1/payment-sessions', {
    headers: { authorization: `Bearer ${sb.apiKey}x` },
  })
  expectError(prefix, 401, 'UNAUTHORIZED')
})

test('extension: the merchant renews a session token (API key only); the session is unchanged', async () => {
  const fresh = await createSession(sb)
  const path = `/api/v1/payment-sessions/${fresh.paymentSessionId}/session-token`
  expectError(
    await call('POST', path, { auth: fresh.paymentSessionToken, body: {} }),
    403,
    'FORBIDDEN',
  )
  // While the token has more than half its lifetime left, the same token: pages agree on one.
  const same = await call('POST', path, { auth: sb.apiKey, body: {} })
  expect(same.status).toBe(200)
  expect(same.json.paymentSessionToken).toBe(fresh.paymentSessionToken)
  sb.clock.advance(TTL + 1)
  expectError(
    await call('GET', `/payment-sessions/${fresh.paymentSessionId}`, {
      auth: fresh.paymentSessionToken,
    }),
    401,
    'SESSION_TOKEN_EXPIRED',
  )
  const renewed = await call('POST', path, { auth: sb.apiKey, body: {} })
  expect(renewed.status).toBe(200)
  expect(renewed.json.paymentSessionToken).toMatch(/^pst_[0-9a-f]{48}$/)
  expect(renewed.json.paymentSessionToken).not.toBe(fresh.paymentSessionToken)
  expect(Date.parse(renewed.json.paymentSessionTokenExpiresAt)).toBeGreaterThan(sb.clock.now())
  const read = await call('GET', `/payment-sessions/${fresh.paymentSessionId}`, {
    auth: renewed.json.paymentSessionToken,
  })
  expect(read.status).toBe(200)
  expect(read.json.status).toBe('CREATED')
  expectError(
    await call('POST', '/api/v1/payment-sessions/ps_unknown/session-token', {
      auth: sb.apiKey,
      body: {},
    }),
    404,
    'SESSION_NOT_FOUND',
  )
})
