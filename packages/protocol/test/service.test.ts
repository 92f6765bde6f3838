import { describe, expect, test } from 'vitest'
import {
  backoffDelay,
  isPlainId,
  isSameAmount,
  isUnknownRoute,
  serviceErrorBody,
  serviceErrorCode,
  servicePaths,
} from '../src/index.js'

// The service's rules core and server both follow: one answer to "what does this HTTP error
// mean" and "where does this operation live", whichever package asks.

describe('status to code: one mapping for every client', () => {
  test.each([
    [400, undefined, 'other', 'INVALID_REQUEST'],
    [422, undefined, 'other', 'INVALID_REQUEST'],
    [401, undefined, 'session', 'UNAUTHORIZED'],
    [403, undefined, 'session', 'FORBIDDEN'],
    [404, undefined, 'session', 'SESSION_NOT_FOUND'],
    [404, undefined, 'capture', 'CAPTURE_NOT_FOUND'],
    [404, undefined, 'other', 'NOT_FOUND'],
    [405, undefined, 'other', 'METHOD_NOT_ALLOWED'],
    [413, undefined, 'other', 'PAYLOAD_TOO_LARGE'],
    [415, undefined, 'other', 'UNSUPPORTED_MEDIA_TYPE'],
    [409, undefined, 'other', 'API_ERROR'],
    [408, undefined, 'other', 'API_UNAVAILABLE'],
    [429, undefined, 'other', 'API_UNAVAILABLE'],
    [503, 'SESSION_NOT_FOUND', 'session', 'API_UNAVAILABLE'],
    // The service's own code wins when the SDK knows it, whatever the status.
    [401, 'SESSION_TOKEN_EXPIRED', 'session', 'SESSION_TOKEN_EXPIRED'],
    [400, 'IDEMPOTENCY_CONFLICT', 'other', 'IDEMPOTENCY_CONFLICT'],
    [404, 'NOT_FOUND', 'session', 'NOT_FOUND'],
    [400, 'SOMETHING_NEW', 'other', 'INVALID_REQUEST'],
  ] as const)('%i %s (%s) → %s', (status, serviceCode, resource, code) => {
    expect(serviceErrorCode(status, serviceCode, resource)).toBe(code)
  })

  test('the error body is read tolerantly', () => {
    expect(serviceErrorBody({ error: { code: 'X', message: 'm' } })).toEqual({
      code: 'X',
      message: 'm',
    })
    expect(serviceErrorBody({ error: { code: 4 } })).toEqual({})
    expect(serviceErrorBody('<html>')).toEqual({})
    expect(serviceErrorBody(null)).toEqual({})
  })
})

describe('path forms', () => {
  test('each operation, the spec form first, the other second', () => {
    expect(servicePaths('getSession', { sessionId: 'ps 1' })).toEqual([
      '/payment-sessions/ps%201',
      '/api/v1/payment-sessions/ps%201',
    ])
    expect(servicePaths('createSession')).toEqual(['/payment-sessions', '/api/v1/payment-sessions'])
    expect(servicePaths('reportFunding', { sessionId: 'a' })).toEqual([
      '/api/v1/payment-sessions/a/funding-transaction',
      '/payment-sessions/a/funding-transaction',
    ])
    expect(servicePaths('getCapture', { sessionId: 'a', captureId: 'c/1' })[0]).toBe(
      '/api/v1/payment-sessions/a/captures/c%2F1',
    )
  })

  test('an id that a URL would read as a path step is refused, not encoded', () => {
    for (const sessionId of ['.', '..', '', undefined])
      for (const operation of ['getSession', 'reportFunding', 'createCapture'] as const)
        expect(() => servicePaths(operation, { sessionId }), `${operation} ${sessionId}`).toThrow(
          expect.objectContaining({ code: 'INVALID_REQUEST' }),
        )
    expect(() => servicePaths('getCapture', { sessionId: 'a', captureId: '..' })).toThrow(
      /captureId must be a non-empty string other than "\." and "\.\."/,
    )
    // Dots inside an id, or more than two, are a plain step.
    expect(servicePaths('getSession', { sessionId: '...' })[0]).toBe('/payment-sessions/...')
    expect(servicePaths('getSession', { sessionId: 'ps.1' })[0]).toBe('/payment-sessions/ps.1')
    expect(isPlainId('%2e%2e')).toBe(true)
    expect(servicePaths('getSession', { sessionId: '%2e%2e' })[0]).toBe(
      '/payment-sessions/%252e%252e',
    )
  })

  test('only a 404 without JSON is an unknown route', () => {
    expect(isUnknownRoute(404, 'text/html')).toBe(true)
    expect(isUnknownRoute(404, null)).toBe(true)
    expect(isUnknownRoute(404, 'application/json; charset=utf-8')).toBe(false)
    expect(isUnknownRoute(400, 'text/html')).toBe(false)
  })
})

test('backoff doubles per failure up to the ceiling; jitter takes up to its share off', () => {
  const exact = { retryDelay: 250, maxRetryDelay: 4_000, jitter: 0 }
  expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(exact, n))).toEqual([
    250, 500, 1000, 2000, 4000, 4000,
  ])
  for (let i = 0; i < 200; i++) {
    const half = backoffDelay({ ...exact, jitter: 0.5 }, 2)
    expect(half).toBeGreaterThanOrEqual(500)
    expect(half).toBeLessThanOrEqual(1000)
    const full = backoffDelay({ ...exact, jitter: 1 }, 2)
    expect(full).toBeGreaterThanOrEqual(0)
    expect(full).toBeLessThanOrEqual(1000)
  }
})

test('amounts compare exactly as decimals', () => {
  expect(isSameAmount('10.5', '10.50')).toBe(true)
  expect(isSameAmount('010.500', '10.5')).toBe(true)
  expect(isSameAmount('10.000000000000000001', '10')).toBe(false)
  expect(isSameAmount('1e1', '10')).toBe(false)
})
