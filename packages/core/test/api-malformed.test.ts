import { describe, expect, test } from 'vitest'
import {
  createPaySessionConfig,
  getSession,
  normalizeApiBase,
  type PaySessionError,
  reportFunding,
} from '../src/exports/index.js'

// A mocked fetch only for answers a real server would not produce.
function configAnswering(answer: (url: string) => Response) {
  const calls: string[] = []
  const config = createPaySessionConfig({
    apiBase: 'https://service.test/api/v1/',
    fetch: async (input) => {
      calls.push(String(input))
      return answer(String(input))
    },
    polling: { retryDelay: 1, maxRetryDelay: 1 },
    reportRetries: 2,
  })
  return { config, calls }
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: PaySessionError) => error.code,
  )
const params = { sessionId: 'ps_1', sessionToken: 'pst_1' }

describe('response parsing', () => {
  test('base URL is normalised with or without /api/v1', () => {
    expect(normalizeApiBase('https://x.test/api/v1/')).toBe('https://x.test')
    expect(normalizeApiBase('https://x.test/')).toBe('https://x.test')
    expect(normalizeApiBase('https://x.test/pay/api/v1')).toBe('https://x.test/pay')
  })

  test('minimal session: missing optional fields are fine, unknown fields kept', async () => {
    const { config, calls } = configAnswering(() =>
      json({ paymentSessionId: 'ps_1', status: 'CREATED', amount: '1.00', futureField: { a: 1 } }),
    )
    const session = await getSession(config, params)
    expect(session).toMatchObject({
      paymentSessionId: 'ps_1',
      status: 'CREATED',
      futureField: { a: 1 },
    })
    expect(calls).toEqual(['https://service.test/payment-sessions/ps_1'])
  })

  test.each([
    ['not JSON', () => new Response('<html>oops</html>', { status: 200 })],
    ['an array', () => json([])],
    ['missing id', () => json({ status: 'PENDING', amount: '1.00' })],
    ['amount as number', () => json({ paymentSessionId: 'ps_1', status: 'PENDING', amount: 1 })],
    ['unknown status', () => json({ paymentSessionId: 'ps_1', status: 'WEIRD', amount: '1.00' })],
    [
      'userAddress as number',
      () => json({ paymentSessionId: 'ps_1', status: 'PENDING', amount: '1', userAddress: 5 }),
    ],
  ])('%s → INVALID_RESPONSE', async (_name, answer) => {
    const { config } = configAnswering(answer)
    expect(await codeOf(getSession(config, params))).toBe('INVALID_RESPONSE')
  })

  test('502 with an HTML body → API_UNAVAILABLE with the status', async () => {
    const { config } = configAnswering(() => new Response('Bad gateway', { status: 502 }))
    const error = await getSession(config, params).catch((e: PaySessionError) => e)
    expect(error).toMatchObject({ code: 'API_UNAVAILABLE', status: 502 })
  })

  test('404 without JSON on one path form retries once on the other form', async () => {
    const { config, calls } = configAnswering((url) =>
      url.includes('/api/v1/')
        ? json({ paymentSessionId: 'ps_1', status: 'PENDING', amount: '1.00' })
        : new Response('Not found', { status: 404 }),
    )
    expect((await getSession(config, params)).status).toBe('PENDING')
    expect(calls).toEqual([
      'https://service.test/payment-sessions/ps_1',
      'https://service.test/api/v1/payment-sessions/ps_1',
    ])
  })

  test('a network failure is API_UNAVAILABLE, and reporting retries it then gives up', async () => {
    const { config, calls } = configAnswering(() => {
      throw new TypeError('fetch failed')
    })
    expect(await codeOf(getSession(config, params))).toBe('API_UNAVAILABLE')
    calls.length = 0
    expect(await codeOf(reportFunding(config, { ...params, hash: `0x${'a'.repeat(64)}` }))).toBe(
      'API_UNAVAILABLE',
    )
    expect(calls).toHaveLength(3) // first try + reportRetries (2)
  })

  test('report answer without success boolean → INVALID_RESPONSE; a bad hash never leaves', async () => {
    const { config, calls } = configAnswering(() => json({ ok: true }))
    expect(await codeOf(reportFunding(config, { ...params, hash: `0x${'b'.repeat(64)}` }))).toBe(
      'INVALID_RESPONSE',
    )
    calls.length = 0
    expect(await codeOf(reportFunding(config, { ...params, hash: '0x1234' }))).toBe(
      'INVALID_TRANSACTION_HASH',
    )
    expect(calls).toEqual([])
  })
})
