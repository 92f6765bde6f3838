import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  absoluteApiBase,
  checkSocketUrl,
  checkUrl,
  decimalToUnits,
  isPaySessionError,
  normalizeApiBase,
  PaySessionError,
  parseAmount,
  parseCapture,
  parseCaptures,
  parseCreatedSession,
  parseFundingResponse,
  parseSession,
  paySessionErrorCodes,
  unitsToDecimal,
  withUsableExtensions,
} from '../src/index.js'

const code = (fn: () => unknown) => {
  try {
    fn()
    return 'ok'
  } catch (error) {
    return (error as PaySessionError).code
  }
}

describe('the tolerance rule', () => {
  const base = { paymentSessionId: 'ps_1', status: 'PENDING' }

  test('extensions of the expected type are used', () => {
    const session = parseSession({
      ...base,
      acceptedTokens: ['USDC', 'USDT'],
      receivedAmount: '0.00',
      expiresAt: '2026-01-01T00:00:00.000Z',
      chainId: 31337,
    })
    expect(session).toMatchObject({
      acceptedTokens: ['USDC', 'USDT'],
      receivedAmount: '0.00',
      expiresAt: '2026-01-01T00:00:00.000Z',
      chainId: 31337,
    })
  })

  test.each([
    ['acceptedTokens', 'USDC'],
    ['acceptedTokens', [1]],
    ['receivedAmount', 5],
    ['receivedAmount', 'five'],
    ['receivedAmount', '1e3'],
    ['expiresAt', 'tomorrow'],
    ['expiresAt', 1_700_000_000],
    ['chainId', '31337'],
    ['chainId', -1],
    ['paymentSessionTokenExpiresAt', false],
  ])('extension %s = %j is ignored, the session kept', (key, value) => {
    const session = parseSession({ ...base, [key]: value })
    expect(session).not.toHaveProperty(key)
    expect(session.status).toBe('PENDING')
    expect(withUsableExtensions({ [key]: value })).toEqual({})
  })

  test('unknown fields are kept as sent', () => {
    expect(parseSession({ ...base, futureField: { a: 1 } })).toMatchObject({
      futureField: { a: 1 },
    })
  })

  test.each([
    ['paymentSessionId', undefined],
    ['status', 'PAID'],
    ['amount', 12.5],
    ['tokenSymbol', 1],
    ['userAddress', 5],
    ['fundingTransactionHash', {}],
    ['capturableAmount', 1],
    ['captures', {}],
  ])('listed field %s = %j is INVALID_RESPONSE', (key, value) => {
    expect(code(() => parseSession({ ...base, amount: '1.00', [key]: value }))).toBe(
      'INVALID_RESPONSE',
    )
  })

  test('a captures element that is not a complete capture is left out', () => {
    const captures = [
      { captureId: 'c1', status: 'CAPTURED', captureAmount: '1.00' },
      { status: 'CAPTURED', captureTransferTransactionHash: '0x1' },
    ]
    expect(parseSession({ ...base, captures }).captures).toEqual(captures)
    expect(parseCaptures(captures).map((c) => c.captureId)).toEqual(['c1'])
  })

  test('create: the short variant with only id and token', () => {
    expect(parseCreatedSession({ paymentSessionId: 'ps_1', paymentSessionToken: 't' })).toEqual({
      paymentSessionId: 'ps_1',
      paymentSessionToken: 't',
    })
    expect(code(() => parseCreatedSession({ paymentSessionId: 'ps_1' }))).toBe('INVALID_RESPONSE')
  })

  test('captures: both id names and both flag names', () => {
    const shown = { status: 'CAPTURING', captureAmount: '1.00' }
    expect(parseCapture({ ...shown, paymentCaptureId: 'c', finalCapture: true })).toMatchObject({
      captureId: 'c',
      finalCapture: true,
      refundAmount: '0.00',
      captureTransferTransactionHash: null,
    })
    expect(parseCapture({ ...shown, captureId: 'c', isFinalCapture: false })).toMatchObject({
      captureId: 'c',
      finalCapture: false,
    })
    expect(code(() => parseCapture({ ...shown }))).toBe('INVALID_RESPONSE')
    expect(code(() => parseCapture({ ...shown, captureId: 'c', finalCapture: 'yes' }))).toBe(
      'INVALID_RESPONSE',
    )
  })

  test('funding: success required, extensions only when well-typed', () => {
    expect(parseFundingResponse({ success: true, status: 'NEW', processed: 'yes' })).toEqual({
      success: true,
    })
    expect(parseFundingResponse({ success: true, status: 'FUNDED', processed: true })).toEqual({
      success: true,
      status: 'FUNDED',
      processed: true,
    })
    expect(code(() => parseFundingResponse({ ok: true }))).toBe('INVALID_RESPONSE')
  })
})

describe('the amount codec', () => {
  test('decimal string ↔ base units, exactly, for any amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.nat(36), (units, decimals) => {
        const text = unitsToDecimal(units, decimals)
        expect(decimalToUnits(text, decimals)).toBe(units)
        expect(unitsToDecimal(units, decimals, { minDecimals: 2 })).toMatch(
          decimals >= 2 ? /\.\d{2,}$/ : /^\d+(\.\d)?$/,
        )
      }),
    )
  })

  test('never rounds, never takes a number', () => {
    expect(decimalToUnits('1.0000001', 6)).toBeNull()
    expect(decimalToUnits(1.5, 6)).toBeNull()
    expect(decimalToUnits('-1', 6)).toBeNull()
    expect(code(() => parseAmount('0.00', 6))).toBe('INVALID_AMOUNT')
    expect(code(() => parseAmount('1.0000001', 6))).toBe('INVALID_AMOUNT')
    expect(code(() => parseAmount('1e3', 6))).toBe('INVALID_AMOUNT')
    expect(parseAmount('12.50', 6)).toBe(12_500_000n)
  })
})

describe('base URLs', () => {
  test('with or without /api/v1 reach the same root', () => {
    expect(normalizeApiBase('https://x.test/api/v1/')).toBe('https://x.test')
    expect(absoluteApiBase('https://x.test/pay/api/v1?x=1')).toBe('https://x.test/pay')
    expect(code(() => absoluteApiBase('/relative'))).toBe('INVALID_CONFIG')
    expect(code(() => absoluteApiBase('ftp://x.test'))).toBe('INVALID_CONFIG')
    expect(code(() => absoluteApiBase('http://localhost:x@evil.example/'))).toBe('INVALID_CONFIG')
    expect(code(() => absoluteApiBase('https://key:secret@api.example'))).toBe('INVALID_CONFIG')
  })
})

describe('the one URL rule (api-base, relay, paymaster, RPCs, explorer links, WalletConnect relay)', () => {
  test.each([
    'https://rpc.example.com',
    'https://basescan.org/',
    'http://localhost:8545',
    'http://127.0.0.1:8545',
    'http://127.3.2.1',
    'http://127.1:4010',
    'http://[::1]:8545',
    'http://[0:0::1]/',
  ])('accepts %s', (url) => {
    expect(checkUrl(url, 'rpcUrls')).toBe(url)
  })

  test.each([
    'http://rpc.example.com',
    'http://192.168.1.10:8545',
    'http://10.0.0.1',
    'http://128.0.0.1',
    'http://localhost.example.com',
    'http://127.0.0.1.evil.example',
    // The host is evil.example: "localhost:x" is user info.
    'http://localhost:x@evil.example/',
    'https://user:secret@rpc.example.com',
    'https://key@rpc.example.com',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)//https://x',
    'data:text/html,<script>alert(1)</script>',
    'ws://127.0.0.1:8545',
    'ftp://rpc.example.com',
    '/relative',
    'not a url',
    '',
  ])('refuses %s with INVALID_CONFIG naming the setting', (url) => {
    const error = (() => {
      try {
        checkUrl(url, 'BASE explorerUrl')
      } catch (error) {
        return error
      }
    })()
    expect(isPaySessionError(error, 'INVALID_CONFIG')).toBe(true)
    expect((error as PaySessionError).details).toContain('BASE explorerUrl')
  })

  test.each([
    'wss://relay.walletconnect.org',
    'wss://relay.example.com:8443/path?x=1',
    'ws://localhost:4444',
    'ws://127.0.0.1:4444',
    'WSS://[::1]/',
  ])('accepts the WebSocket %s', (url) => {
    expect(checkSocketUrl(url, 'walletConnectRelayUrl')).toBe(url)
  })

  test.each([
    'ws://example.com',
    'ws://192.168.1.10:4444',
    'ws://localhost.example.com',
    // The host is evil.example: "localhost:x" is user info.
    'ws://localhost:x@evil.example/',
    'wss://user:secret@relay.example.com',
    'wss://key@relay.example.com',
    'https://relay.example.com',
    'http://127.0.0.1:4444',
    'javascript:alert(1)',
    'wss:',
    '/relay',
    'not a url',
    '',
    42,
    undefined,
  ])('refuses the WebSocket %s with INVALID_CONFIG naming the setting', (url) => {
    const error = (() => {
      try {
        checkSocketUrl(url, 'walletConnectRelayUrl')
      } catch (error) {
        return error
      }
    })()
    expect(isPaySessionError(error, 'INVALID_CONFIG')).toBe(true)
    expect((error as PaySessionError).details).toBe(
      `walletConnectRelayUrl ${JSON.stringify(url)}: not wss (ws on localhost), or has user:password`,
    )
  })

  test('a relative URL resolves against the page when allowed', () => {
    const page = (href: string) => ((globalThis as { location?: unknown }).location = { href })
    try {
      page('https://shop.example/checkout')
      expect(checkUrl('/relay', 'relayUrl', true)).toBe('/relay')
      expect(code(() => checkUrl('/relay', 'rpcUrls'))).toBe('INVALID_CONFIG')
      page('http://localhost:5173/')
      expect(checkUrl('/relay', 'relayUrl', true)).toBe('/relay')
      page('http://shop.example/')
      expect(code(() => checkUrl('/relay', 'relayUrl', true))).toBe('INVALID_CONFIG')
      expect(code(() => checkUrl(42, 'relayUrl', true))).toBe('INVALID_CONFIG')
    } finally {
      delete (globalThis as { location?: unknown }).location
    }
  })
})

describe('PaySessionError', () => {
  test('the message carries the details, the docs link and the version, as viem does', () => {
    const error = new PaySessionError('SESSION_TOKEN_EXPIRED', { details: 'HTTP 401', status: 401 })
    expect(error.message).toContain(error.shortMessage)
    expect(error.message).toContain('Details: HTTP 401')
    expect(error.message).toContain('Docs: docs/errors.md#session_token_expired')
    expect(error.message).toMatch(/Version: @paysession\/protocol@\d/)
    expect(isPaySessionError(error, 'UNAUTHORIZED', 'SESSION_TOKEN_EXPIRED')).toBe(true)
    expect(isPaySessionError(error, 'UNAUTHORIZED')).toBe(false)
  })

  test('walk() finds a cause, or the deepest one', () => {
    const root = Object.assign(new Error('user rejected'), { code: 4001 })
    const middle = new Error('wallet', { cause: root })
    const error = new PaySessionError('USER_REJECTED', { cause: middle })
    expect(error.walk()).toBe(root)
    expect(error.walk((e) => (e as { code?: number }).code === 4001)).toBe(root)
    expect(error.walk((e) => e === 'nothing')).toBeNull()
  })

  test('every code links to a real heading in docs/errors.md', () => {
    const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8')
    const anchors = new Set(
      [...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim().toLowerCase().replace(/\s+/g, '-')),
    )
    for (const c of paySessionErrorCodes) {
      const [file, anchor] = new PaySessionError(c).docsPath.split('#')
      expect(file).toBe('docs/errors.md')
      expect(anchors, c).toContain(anchor)
    }
  })
})
