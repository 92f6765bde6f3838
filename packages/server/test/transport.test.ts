import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createPaySessionClient,
  isValidAmount,
  type PaySessionClientOptions,
  PaySessionError,
} from '../src/index.js'
import { close, listen } from './helpers.js'

type Hit = { method: string; path: string; body: unknown; headers: IncomingMessage['headers'] }
type Reply = (res: ServerResponse, req: IncomingMessage) => void

/**
 * A real HTTP server whose answers the test scripts: each hit on a path takes
 * the next scripted reply, the last one repeating.
 */
let server: Server
let url: string
let hits: Hit[] = []
let script = new Map<string, Reply[]>()

const json =
  (status: number, body: unknown): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
const text =
  (status: number, body: string): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'text/plain' })
    res.end(body)
  }
/** Drops the connection without an answer: fetch sees a network error. */
const hangUp: Reply = (_res, req) => req.socket.destroy()

const session = {
  paymentSessionId: 'ps_0123456789abcdef01234567',
  paymentSessionToken: 'pst_token',
  amount: '10.00',
  currency: 'USD',
  status: 'CREATED',
}
const capture = {
  captureId: 'cap_1',
  status: 'CAPTURING',
  captureAmount: '4.00',
  refundAmount: '0.00',
}

function on(path: string, ...replies: Reply[]) {
  script.set(path, replies)
}

beforeAll(async () => {
  ;({ server, url } = await listen((req, res) => {
    let raw = ''
    req.on('data', (chunk) => {
      raw += chunk
    })
    req.on('end', () => {
      const path = req.url ?? '/'
      hits.push({
        method: req.method ?? '',
        path,
        body: raw ? JSON.parse(raw) : undefined,
        headers: req.headers,
      })
      const replies = script.get(`${req.method} ${path}`)
      if (!replies) return text(404, 'no route')(res, req)
      const reply = replies.length > 1 ? replies.shift()! : replies[0]!
      reply(res, req)
    })
  }))
})
afterAll(() => close(server))
beforeEach(() => {
  hits = []
  script = new Map()
})

const client = (options: Partial<PaySessionClientOptions> = {}) =>
  createPaySessionClient({
    apiBase: url,
    apiKey: 'sk_test',
    retry: { retries: 3, retryDelay: 5, maxRetryDelay: 20 },
    ...options,
  })

async function failure(promise: Promise<unknown>): Promise<PaySessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PaySessionError)
  return error as PaySessionError
}

describe('retries', () => {
  it('retries a GET after 5xx answers and returns the eventual success', async () => {
    on('GET /payment-sessions/ps_1', json(503, {}), text(502, 'bad gateway'), json(200, session))
    const result = await client().getSession('ps_1')
    expect(result.paymentSessionId).toBe(session.paymentSessionId)
    expect(hits).toHaveLength(3)
  })

  it('retries create session after network errors, with the same requestId each time', async () => {
    on('POST /payment-sessions', hangUp, hangUp, json(200, session))
    const created = await client().createSession({ amount: '10.00', currency: 'USD' })
    expect(hits).toHaveLength(3)
    const ids = hits.map((hit) => (hit.body as { requestId: string }).requestId)
    expect(new Set(ids).size).toBe(1)
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.requestId).toBe(ids[0])
  })

  it('retries create capture after a 500, with the same requestId', async () => {
    on(
      'POST /api/v1/payment-sessions/ps_1/captures',
      json(500, { error: { code: 'INTERNAL', message: 'boom' } }),
      json(202, capture),
    )
    const result = await client().createCapture('ps_1', {
      captureAmount: '4.00',
      requestId: 'req-7',
    })
    expect(result).toMatchObject({ captureId: 'cap_1', requestId: 'req-7' })
    expect(hits.map((hit) => hit.body)).toEqual([
      { requestId: 'req-7', captureAmount: '4.00', isFinalCapture: false, finalCapture: false },
      { requestId: 'req-7', captureAmount: '4.00', isFinalCapture: false, finalCapture: false },
    ])
  })

  it('never retries a call without a requestId', async () => {
    on('POST /payment-sessions', json(503, { error: { code: 'INTERNAL' } }), json(200, session))
    const error = await failure(
      client().createSession({ amount: '10.00', currency: 'USD', requestId: null }),
    )
    expect(error.code).toBe('API_UNAVAILABLE')
    expect(error.status).toBe(503)
    expect(hits).toHaveLength(1)
    expect(hits[0]?.body).toEqual({ amount: '10.00', currency: 'USD' })

    hits = []
    on('POST /payment-sessions', hangUp, json(200, session))
    const network = await failure(
      client().createSession({ amount: '10.00', currency: 'USD', requestId: null }),
    )
    expect(network.code).toBe('API_UNAVAILABLE')
    expect(network.cause).toBeInstanceOf(Error)
    expect(hits).toHaveLength(1)
  })

  it('never retries a 4xx answer', async () => {
    on(
      'POST /api/v1/payment-sessions/ps_1/captures',
      json(409, { error: { code: 'SESSION_NOT_CAPTURABLE', message: 'Session is CREATED' } }),
      json(202, capture),
    )
    const error = await failure(client().createCapture('ps_1', { captureAmount: '1.00' }))
    expect(error).toMatchObject({ code: 'SESSION_NOT_CAPTURABLE', status: 409 })
    expect(error.details).toBe('Session is CREATED')
    expect(hits).toHaveLength(1)
  })

  it('gives up after the configured retries with API_UNAVAILABLE', async () => {
    on('GET /api/v1/payment-sessions', json(503, {}))
    const error = await failure(client({ retry: { retries: 2, retryDelay: 1 } }).listSessions())
    expect(error).toMatchObject({ code: 'API_UNAVAILABLE', status: 503 })
    expect(hits).toHaveLength(3)
  })

  it('backs off exponentially', async () => {
    on(
      'GET /payment-sessions/ps_1',
      json(503, {}),
      json(503, {}),
      json(503, {}),
      json(200, session),
    )
    const started = performance.now()
    await client({ retry: { retries: 3, retryDelay: 40, maxRetryDelay: 1000 } }).getSession('ps_1')
    // Delays are at least half of 40, 80, 160 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(hits).toHaveLength(4)
  })

  it('does not retry at all with retry: false', async () => {
    on('GET /payment-sessions/ps_1', json(503, {}), json(200, session))
    await failure(client({ retry: false }).getSession('ps_1'))
    expect(hits).toHaveLength(1)
  })
})

describe('paths and requests', () => {
  it('sends the API key as a bearer credential and JSON bodies', async () => {
    on('POST /payment-sessions', json(200, session))
    await client().createSession({ amount: '10.00', currency: 'USD', requestId: 'r1' })
    expect(hits[0]?.headers.authorization).toBe('Bearer sk_test')
    expect(hits[0]?.headers['content-type']).toBe('application/json')
    expect(hits[0]?.body).toEqual({ amount: '10.00', currency: 'USD', requestId: 'r1' })
  })

  it("takes apiBase (core's name), and nothing else", async () => {
    on('POST /payment-sessions', json(200, session))
    const named = createPaySessionClient({ apiBase: `${url}/api/v1`, apiKey: 'sk_test' })
    await named.createSession({ amount: '10.00', currency: 'USD' })
    expect(hits.map((hit) => hit.path)).toEqual(['/payment-sessions'])
    const missing = await failure(
      Promise.resolve().then(() =>
        createPaySessionClient({ baseUrl: url, apiKey: 'sk_test' } as never),
      ),
    )
    expect(missing).toMatchObject({ code: 'INVALID_CONFIG' })
    expect(missing.details).toMatch(/apiBase/)
  })

  it('accepts a base URL with /api/v1 and calls each operation on its spec form', async () => {
    on('POST /payment-sessions', json(200, session))
    on('POST /api/v1/payment-sessions/ps_1/captures', json(202, capture))
    const prefixed = client({ apiBase: `${url}/api/v1/` })
    await prefixed.createSession({ amount: '10.00', currency: 'USD' })
    await prefixed.createCapture('ps_1', { captureAmount: '4.00' })
    expect(hits.map((hit) => hit.path)).toEqual([
      '/payment-sessions',
      '/api/v1/payment-sessions/ps_1/captures',
    ])
  })

  it('falls back once to the other path form on a non-JSON 404', async () => {
    on('POST /api/v1/payment-sessions', json(200, session))
    const created = await client().createSession({ amount: '10.00', currency: 'USD' })
    expect(created.paymentSessionId).toBe(session.paymentSessionId)
    expect(hits.map((hit) => hit.path)).toEqual(['/payment-sessions', '/api/v1/payment-sessions'])
  })

  it('does not fall back on a JSON 404 from the service', async () => {
    on(
      'GET /payment-sessions/ps_gone',
      json(404, { error: { code: 'SESSION_NOT_FOUND', message: 'x' } }),
    )
    const error = await failure(client().getSession('ps_gone'))
    expect(error).toMatchObject({ code: 'SESSION_NOT_FOUND', status: 404 })
    expect(hits).toHaveLength(1)
  })

  it('URL-encodes identifiers', async () => {
    on('GET /api/v1/payment-sessions/ps%2F1/captures/cap%3F2', json(200, capture))
    await client().getCapture('ps/1', 'cap?2')
    expect(hits[0]?.path).toBe('/api/v1/payment-sessions/ps%2F1/captures/cap%3F2')
  })

  it('reads the session with a session token when asked', async () => {
    on('GET /payment-sessions/ps_1', json(200, session))
    await client().getSession('ps_1', { sessionToken: 'pst_abc' })
    expect(hits[0]?.headers.authorization).toBe('Bearer pst_abc')
  })
})

describe('response variants and errors', () => {
  it('tolerates the short create response and PENDING after create', async () => {
    on(
      'POST /payment-sessions',
      json(200, { paymentSessionId: 'ps_a', paymentSessionToken: 'pst_a' }),
    )
    const short = await client().createSession({ amount: '1.00', currency: 'USD' })
    expect(short).toMatchObject({ paymentSessionId: 'ps_a', paymentSessionToken: 'pst_a' })
    expect(short.status).toBeUndefined()
    on('POST /payment-sessions', json(200, { ...session, status: 'PENDING' }))
    expect((await client().createSession({ amount: '1.00', currency: 'USD' })).status).toBe(
      'PENDING',
    )
  })

  it('reads a capture identified as paymentCaptureId with finalCapture', async () => {
    const { captureId: _, ...rest } = capture
    on(
      'POST /api/v1/payment-sessions/ps_1/captures',
      json(202, {
        ...rest,
        paymentCaptureId: 'cap_q',
        finalCapture: true,
        createdAt: '2025-01-01T00:00:00Z',
      }),
    )
    const result = await client().createCapture('ps_1', {
      captureAmount: '4.00',
      isFinalCapture: true,
    })
    expect(result).toMatchObject({
      captureId: 'cap_q',
      finalCapture: true,
      captureTransferTransactionHash: null,
      refundTransferTransactionHash: null,
    })
    expect(hits[0]?.body).toMatchObject({ isFinalCapture: true, finalCapture: true })
  })

  it('turns malformed answers into INVALID_RESPONSE', async () => {
    on('GET /payment-sessions/ps_1', text(200, '<html>hi</html>'))
    expect((await failure(client().getSession('ps_1'))).code).toBe('INVALID_RESPONSE')
    on('GET /payment-sessions/ps_1', json(200, { ...session, status: 'PAID' }))
    expect((await failure(client().getSession('ps_1'))).code).toBe('INVALID_RESPONSE')
    on('GET /payment-sessions/ps_1', json(200, { status: 'CREATED' }))
    expect((await failure(client().getSession('ps_1'))).code).toBe('INVALID_RESPONSE')
    on('GET /api/v1/payment-sessions/ps_1/captures/c', json(200, { status: 'CAPTURED' }))
    expect((await failure(client().getCapture('ps_1', 'c'))).code).toBe('INVALID_RESPONSE')
  })

  it('maps unknown or missing error codes by HTTP status and keeps the service code', async () => {
    on(
      'GET /payment-sessions/ps_1',
      json(401, { error: { code: 'KEY_REVOKED', message: 'revoked' } }),
    )
    const unknown = await failure(client().getSession('ps_1'))
    expect(unknown).toMatchObject({ code: 'UNAUTHORIZED', status: 401, serviceCode: 'KEY_REVOKED' })
    on('GET /payment-sessions/ps_1', text(403, 'Forbidden'))
    expect(await failure(client().getSession('ps_1'))).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    })
  })

  it('refuses invalid amounts before sending anything', async () => {
    on('POST /payment-sessions', json(200, session))
    const bad: unknown[] = ['0', '0.00', '-1', '1e3', '1.', '.5', ' 1', '1,00', '', 12.5, null]
    for (const amount of bad) {
      const error = await failure(
        client().createSession({ amount: amount as string, currency: 'USD' }),
      )
      expect(error.code).toBe('INVALID_AMOUNT')
      const captureError = await failure(
        client().createCapture('ps_1', { captureAmount: amount as string }),
      )
      expect(captureError.code).toBe('INVALID_AMOUNT')
    }
    expect(hits).toHaveLength(0)
  })

  it('refuses a bad configuration', () => {
    expect(() => createPaySessionClient({ apiBase: 'not a url', apiKey: 'k' })).toThrow(
      PaySessionError,
    )
    expect(() => createPaySessionClient({ apiBase: url, apiKey: '' })).toThrow(/apiKey/)
  })
})

describe('isValidAmount', () => {
  it('accepts every positive decimal string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n }), fc.nat({ max: 999_999 }), (whole, fraction) => {
        expect(isValidAmount(`${whole}`)).toBe(true)
        expect(isValidAmount(`${whole}.${fraction}`)).toBe(true)
        expect(isValidAmount(`0.${fraction + 1}`)).toBe(true)
      }),
    )
  })

  it('refuses numbers and anything with a sign, exponent or stray character', () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        expect(isValidAmount(value)).toBe(false)
        expect(isValidAmount(`-${Math.abs(value)}`)).toBe(false)
      }),
    )
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(isValidAmount(value)).toBe(/^\d+(\.\d+)?$/.test(value) && /[1-9]/.test(value))
      }),
    )
  })
})
