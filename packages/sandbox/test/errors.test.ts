import { request } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Sandbox } from '../src/index.js'
import {
  type ApiResponse,
  api,
  capture,
  createSession,
  expectError,
  fundedSession,
  type SessionJson,
  start,
  waitForSession,
} from './helpers.js'

let sb: Sandbox
let call: ReturnType<typeof api>
let created: SessionJson // stays CREATED
let funded: SessionJson // FUNDED with 10.00, one completed capture 'done' of 1.00
let doneCaptureId: string
beforeAll(async () => {
  sb = await start()
  call = api(sb)
  created = await createSession(sb, { amount: '10.00', currency: 'USD', requestId: 'req-a' })
  funded = (await fundedSession(sb)).created
  const c = await capture(sb, funded.paymentSessionId, { requestId: 'done', captureAmount: '1' })
  expect(c.status).toBe(202)
  doneCaptureId = c.json.captureId
  await waitForSession(sb, funded.paymentSessionId, (s) => s.status === 'FUNDED')
})
afterAll(() => sb?.stop())

/** Everything a merchant could observe: every session (with its captures) and the webhook log. */
async function state() {
  const list = await call('GET', '/api/v1/payment-sessions?limit=500', { auth: sb.apiKey })
  expect(list.status).toBe(200)
  return list.json.data
}

/** Runs bad requests and asserts each is the expected JSON error and that nothing changed. */
async function rejects(
  cases: [string, () => Promise<ApiResponse>, number, string?][],
): Promise<void> {
  const before = await state()
  for (const [name, run, status, code] of cases) {
    const res = await run()
    try {
      expectError(res, status, code)
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`)
    }
  }
  expect(await state()).toEqual(before)
}

const create = (body: unknown) => () =>
  call('POST', '/api/v1/payment-sessions', { auth: sb.apiKey, body })
const createRaw = (raw: string, contentType?: string) => () =>
  call('POST', '/payment-sessions', {
    auth: sb.apiKey,
    raw,
    ...(contentType ? { contentType } : {}),
  })
const report = (body: unknown, id = created.paymentSessionId, auth = created.paymentSessionToken) =>
  call('POST', `/api/v1/payment-sessions/${id}/funding-transaction`, { auth, body })
const cap = (body: unknown) => () =>
  call('POST', `/api/v1/payment-sessions/${funded.paymentSessionId}/captures`, {
    auth: sb.apiKey,
    body,
  })

describe('400', () => {
  test('malformed JSON on every body-taking endpoint: MALFORMED_JSON', async () => {
    const paths = [
      ['/payment-sessions', sb.apiKey],
      [
        `/payment-sessions/${created.paymentSessionId}/funding-transaction`,
        created.paymentSessionToken,
      ],
      [`/api/v1/payment-sessions/${funded.paymentSessionId}/captures`, sb.apiKey],
    ] as const
    const bodies = ['{', '', '{"amount": "1.00",}', "{'amount':'1'}", 'undefined', '{"a":1}}']
    await rejects(
      paths.flatMap(([path, auth]) =>
        bodies.map(
          (raw) =>
            [
              `${path} ${JSON.stringify(raw)}`,
              () => call('POST', path, { auth, raw }),
              400,
              'MALFORMED_JSON',
            ] as [string, () => Promise<ApiResponse>, number, string],
        ),
      ),
    )
  })

  test('a JSON body that is not an object, missing fields, wrong types: INVALID_REQUEST', async () => {
    await rejects([
      ['array', createRaw('[]'), 400, 'INVALID_REQUEST'],
      ['null', createRaw('null'), 400, 'INVALID_REQUEST'],
      ['string', createRaw('"10.00"'), 400, 'INVALID_REQUEST'],
      ['number', createRaw('10'), 400, 'INVALID_REQUEST'],
      ['empty object', create({}), 400, 'INVALID_REQUEST'],
      ['no currency', create({ amount: '1.00' }), 400, 'INVALID_REQUEST'],
      ['no amount', create({ currency: 'USD' }), 400, 'INVALID_REQUEST'],
      ['amount as number', create({ amount: 10, currency: 'USD' }), 400, 'INVALID_REQUEST'],
      ['amount as float', create({ amount: 10.5, currency: 'USD' }), 400, 'INVALID_REQUEST'],
      ['amount null', create({ amount: null, currency: 'USD' }), 400, 'INVALID_REQUEST'],
      ['amount array', create({ amount: ['1'], currency: 'USD' }), 400, 'INVALID_REQUEST'],
      ['currency as number', create({ amount: '1', currency: 840 }), 400, 'INVALID_REQUEST'],
      [
        'requestId as number',
        create({ amount: '1', currency: 'USD', requestId: 1 }),
        400,
        'INVALID_REQUEST',
      ],
      ['funding: no hash', () => report({}), 400, 'INVALID_REQUEST'],
      ['funding: hash number', () => report({ fundingTransactionHash: 1 }), 400, 'INVALID_REQUEST'],
      [
        'funding: wait string',
        () => report({ fundingTransactionHash: `0x${'a'.repeat(64)}`, wait: 'yes' }),
        400,
        'INVALID_REQUEST',
      ],
      ['capture: no requestId', cap({ captureAmount: '1.00' }), 400, 'INVALID_REQUEST'],
      [
        'capture: empty requestId',
        cap({ requestId: '', captureAmount: '1' }),
        400,
        'INVALID_REQUEST',
      ],
      [
        'capture: requestId number',
        cap({ requestId: 7, captureAmount: '1' }),
        400,
        'INVALID_REQUEST',
      ],
      ['capture: no amount', cap({ requestId: 'x' }), 400, 'INVALID_REQUEST'],
      ['capture: amount number', cap({ requestId: 'x', captureAmount: 1 }), 400, 'INVALID_REQUEST'],
      [
        'capture: final string',
        cap({ requestId: 'x', captureAmount: '1', isFinalCapture: 'true' }),
        400,
        'INVALID_REQUEST',
      ],
      [
        'capture: finalCapture number',
        cap({ requestId: 'x', captureAmount: '1', finalCapture: 1 }),
        400,
        'INVALID_REQUEST',
      ],
    ])
  })
})

describe('413 and 415', () => {
  test('a body over 64 KiB: PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ amount: '1.00', currency: 'USD', pad: 'x'.repeat(70_000) })
    await rejects([
      ['declared length', createRaw(big), 413, 'PAYLOAD_TOO_LARGE'],
      [
        'capture',
        () =>
          call('POST', `/payment-sessions/${funded.paymentSessionId}/captures`, {
            auth: sb.apiKey,
            raw: JSON.stringify({ requestId: 'big', captureAmount: '1', pad: 'x'.repeat(70_000) }),
          }),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      // Chunked, so the server only finds out while reading.
      ['chunked', () => chunkedPost('/api/v1/payment-sessions', big), 413, 'PAYLOAD_TOO_LARGE'],
    ])
    // Exactly at the limit is still read (and then judged on its content).
    const atLimit = JSON.stringify({ amount: '1.00', currency: 'USD', pad: '' })
    const padded = atLimit.replace('"pad":""', `"pad":"${'x'.repeat(64 * 1024 - atLimit.length)}"`)
    expect(padded.length).toBe(64 * 1024)
    const res = await createRaw(padded)()
    expect(res.status).toBe(200)
  })

  test('a body without application/json: UNSUPPORTED_MEDIA_TYPE', async () => {
    const body = JSON.stringify({ amount: '1.00', currency: 'USD' })
    await rejects([
      ['text/plain', createRaw(body, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['form', createRaw('amount=1&currency=USD', 'application/x-www-form-urlencoded'), 415],
      ['xml', createRaw(body, 'application/xml'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['jsonx', createRaw(body, 'application/jsonx'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [
        'no content type',
        () =>
          call('POST', '/payment-sessions', {
            auth: sb.apiKey,
            raw: body,
            headers: { 'content-type': '' },
          }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'capture as text',
        () =>
          call('POST', `/api/v1/payment-sessions/${funded.paymentSessionId}/captures`, {
            auth: sb.apiKey,
            raw: JSON.stringify({ requestId: 'txt', captureAmount: '1' }),
            contentType: 'text/plain',
          }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
    ])
    // A charset parameter is fine.
    expect((await createRaw(body, 'application/json; charset=utf-8')()).status).toBe(200)
  })
})

describe('404 and 405', () => {
  test('unknown route, session and capture', async () => {
    const unknown = `ps_${'0'.repeat(24)}`
    const key = { auth: sb.apiKey }
    await rejects([
      ['root', () => call('GET', '/', key), 404, 'NOT_FOUND'],
      ['v2', () => call('GET', '/api/v2/payment-sessions', key), 404, 'NOT_FOUND'],
      ['bare prefix', () => call('GET', '/api/v1', key), 404, 'NOT_FOUND'],
      ['deep', () => call('GET', `/payment-sessions/${unknown}/x/y`, key), 404, 'NOT_FOUND'],
      ['typo', () => call('POST', '/payment-session', { ...key, body: {} }), 404, 'NOT_FOUND'],
      ['session', () => call('GET', `/payment-sessions/${unknown}`, key), 404, 'SESSION_NOT_FOUND'],
      [
        'session /api/v1',
        () => call('GET', `/api/v1/payment-sessions/${unknown}`, key),
        404,
        'SESSION_NOT_FOUND',
      ],
      [
        'capture on unknown session',
        () =>
          call('POST', `/api/v1/payment-sessions/${unknown}/captures`, {
            ...key,
            body: { requestId: 'x', captureAmount: '1' },
          }),
        404,
        'SESSION_NOT_FOUND',
      ],
      [
        'unknown capture',
        () =>
          call(
            'GET',
            `/payment-sessions/${funded.paymentSessionId}/captures/cap_${'0'.repeat(24)}`,
            key,
          ),
        404,
        'CAPTURE_NOT_FOUND',
      ],
      [
        "another session's capture",
        () =>
          call(
            'GET',
            `/payment-sessions/${created.paymentSessionId}/captures/${doneCaptureId}`,
            key,
          ),
        404,
        'CAPTURE_NOT_FOUND',
      ],
      [
        'bad percent-encoding in the id',
        () => call('GET', '/api/v1/payment-sessions/%E0%A4%A', key),
        404,
        'SESSION_NOT_FOUND',
      ],
      [
        'bad percent-encoding in the capture id',
        () => call('GET', `/payment-sessions/${funded.paymentSessionId}/captures/%ZZ`, key),
        404,
        'CAPTURE_NOT_FOUND',
      ],
    ])
  })

  test('a known path with the wrong method: METHOD_NOT_ALLOWED', async () => {
    const id = funded.paymentSessionId
    const cases: [string, string][] = [
      ['DELETE', '/payment-sessions'],
      ['PUT', '/api/v1/payment-sessions'],
      ['DELETE', `/payment-sessions/${id}`],
      ['POST', `/api/v1/payment-sessions/${id}`],
      ['GET', `/api/v1/payment-sessions/${id}/funding-transaction`],
      ['PATCH', `/payment-sessions/${id}/captures`],
      ['GET', `/api/v1/payment-sessions/${id}/captures`],
      ['DELETE', `/api/v1/payment-sessions/${id}/captures/${doneCaptureId}`],
    ]
    await rejects(
      cases.map(([method, path]) => [
        `${method} ${path}`,
        () => call(method, path, { auth: sb.apiKey }),
        405,
        'METHOD_NOT_ALLOWED',
      ]),
    )
  })
})

describe('409', () => {
  test('a capture on a session that is not FUNDED: SESSION_NOT_CAPTURABLE', async () => {
    await rejects([
      [
        'CREATED',
        () => capture(sb, created.paymentSessionId, { requestId: 'c', captureAmount: '1.00' }),
        409,
        'SESSION_NOT_CAPTURABLE',
      ],
    ])
  })

  test('a requestId reused with another body: IDEMPOTENCY_CONFLICT', async () => {
    await rejects([
      [
        'session: other amount',
        create({ amount: '11.00', currency: 'USD', requestId: 'req-a' }),
        409,
        'IDEMPOTENCY_CONFLICT',
      ],
      [
        'session: other currency',
        create({ amount: '10.00', currency: 'EUR', requestId: 'req-a' }),
        409,
        'IDEMPOTENCY_CONFLICT',
      ],
      [
        'capture: other amount',
        cap({ requestId: 'done', captureAmount: '2.00' }),
        409,
        'IDEMPOTENCY_CONFLICT',
      ],
      [
        'capture: final this time',
        cap({ requestId: 'done', captureAmount: '1.00', isFinalCapture: true }),
        409,
        'IDEMPOTENCY_CONFLICT',
      ],
    ])
    // The same body (amount written differently) replays, without a new session or capture.
    const again = await create({ amount: '10', currency: 'usd', requestId: 'req-a' })()
    expect(again.status).toBe(200)
    expect(again.json.paymentSessionId).toBe(created.paymentSessionId)
    const replay = await cap({ requestId: 'done', captureAmount: '1.000000' })()
    expect(replay.status).toBe(202)
    expect(replay.json.captureId).toBe(doneCaptureId)
    expect(replay.json.status).toBe('CAPTURED')
  })
})

describe('422', () => {
  test('session amounts that are not positive decimal strings with at most 2 decimals', async () => {
    const bad = [
      '0',
      '0.00',
      '-1',
      '-0.01',
      '1.001',
      '10.000',
      '1e3',
      '1E3',
      ' 1',
      '1 ',
      '',
      '.5',
      '5.',
      '1,00',
      '+1',
      '0x10',
      'NaN',
      'Infinity',
      'ten',
      '1000000000.01',
      '99999999999',
      '١٠',
    ]
    await rejects(
      bad.map((amount) => [
        JSON.stringify(amount),
        create({ amount, currency: 'USD' }),
        422,
        'INVALID_AMOUNT',
      ]),
    )
  })

  test('unsupported currency, bad requestId', async () => {
    await rejects([
      ...['XYZ', 'BTC', 'USDC', '', 'US D'].map(
        (currency) =>
          [
            `currency ${JSON.stringify(currency)}`,
            create({ amount: '1.00', currency }),
            422,
            'UNSUPPORTED_CURRENCY',
          ] as [string, () => Promise<ApiResponse>, number, string],
      ),
      [
        'empty requestId',
        create({ amount: '1', currency: 'USD', requestId: '' }),
        422,
        'INVALID_REQUEST_ID',
      ],
      [
        'long requestId',
        create({ amount: '1', currency: 'USD', requestId: 'r'.repeat(256) }),
        422,
        'INVALID_REQUEST_ID',
      ],
      [
        'long capture requestId',
        cap({ requestId: 'r'.repeat(256), captureAmount: '1' }),
        422,
        'INVALID_REQUEST_ID',
      ],
    ])
  })

  test('capture amounts: not positive, too many decimals, over capturable', async () => {
    await rejects([
      ...['0', '0.000000', '-1', '1.0000001', '1e3', ' 1', '', 'abc'].map(
        (captureAmount) =>
          [
            `captureAmount ${JSON.stringify(captureAmount)}`,
            cap({ requestId: `bad-${captureAmount}`, captureAmount }),
            422,
            'INVALID_AMOUNT',
          ] as [string, () => Promise<ApiResponse>, number, string],
      ),
      // 9.00 is left after the 1.00 capture.
      [
        'over capturable',
        cap({ requestId: 'over', captureAmount: '9.000001' }),
        422,
        'AMOUNT_EXCEEDS_CAPTURABLE',
      ],
      [
        'over capturable, final',
        cap({ requestId: 'over-final', captureAmount: '10.00', isFinalCapture: true }),
        422,
        'AMOUNT_EXCEEDS_CAPTURABLE',
      ],
    ])
  })

  test('funding-transaction hashes that are not 0x + 64 hex: INVALID_TRANSACTION_HASH', async () => {
    const bad = [
      '',
      'abc',
      `0x${'a'.repeat(63)}`,
      `0x${'a'.repeat(65)}`,
      `${'a'.repeat(64)}`,
      `0x${'g'.repeat(64)}`,
      ` 0x${'a'.repeat(64)}`,
      `0X${'a'.repeat(64)}`,
    ]
    await rejects(
      bad.map((h) => [
        JSON.stringify(h),
        () => report({ fundingTransactionHash: h }),
        422,
        'INVALID_TRANSACTION_HASH',
      ]),
    )
  })

  test('a rejected capture leaves the full amount capturable', async () => {
    const s = await waitForSession(sb, funded.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(s.capturableAmount).toBe('9.00')
    const ok = await cap({ requestId: 'exact', captureAmount: '9.00' })()
    expect(ok.status).toBe(202)
    const done = await waitForSession(sb, funded.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    expect(done.capturedAmount).toBe('10.00')
    expect(done.capturableAmount).toBe('0.00')
    // And now the session is finished: 409, not another capture.
    await rejects([
      [
        'SUCCEEDED',
        cap({ requestId: 'late', captureAmount: '0.01' }),
        409,
        'SESSION_NOT_CAPTURABLE',
      ],
    ])
  })
})

test('random JSON bodies never produce a 500 and only a 200 creates a session', async () => {
  const amountish = fc.oneof(
    fc.string(),
    fc.stringMatching(/^-?\d{0,12}(\.\d{0,8})?$/),
    fc.double().map(String),
    fc.integer(),
    fc.constant(null),
  )
  const body = fc.oneof(
    fc.record(
      {
        amount: amountish,
        currency: fc.oneof(fc.constantFrom('USD', 'EUR', 'eur', 'GBP'), fc.string()),
        requestId: fc.option(fc.string(), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  )
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      const before = (await state()).length
      const res = await call('POST', '/payment-sessions', { auth: sb.apiKey, body: b })
      expect([200, 400, 409, 422]).toContain(res.status)
      if (res.status !== 200) {
        expectError(res, res.status)
        expect((await state()).length).toBe(before)
      }
    }),
    { numRuns: 150 },
  )
})

/** A POST whose body is sent chunked, with no Content-Length. */
function chunkedPost(path: string, body: string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${sb.apiUrl}${path}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            json: JSON.parse(text),
            headers: new Headers(res.headers as Record<string, string>),
          }),
        )
      },
    )
    req.on('error', reject)
    for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192))
    req.end()
  })
}
