import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createCheckout,
  createPaySessionConfig,
  getSession,
  isSameAmount,
  PaySessionError,
  payWithWallet,
  waitForSession,
} from '../src/exports/index.js'
import {
  connectAndChoose,
  createSession,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  transfersTo,
  waitForStep,
  withCheckout,
} from './support.js'

// What a merchant page can pin down: where the service is (https only) and what the session
// must ask for (amount and currency). Both are checked by core, so the widget and vanilla
// users get the same typed errors.

const codeOf = (run: () => unknown) => {
  try {
    run()
    return 'ok'
  } catch (error) {
    return error instanceof PaySessionError ? error.code : String(error)
  }
}

describe('api base must be https (plain http only for this machine)', () => {
  test.each([
    'https://api.example.com',
    'https://api.example.com/api/v1/',
    'http://localhost:4010',
    'http://127.0.0.1:4010/api/v1',
    'http://[::1]:4010',
  ])('accepts %s', (apiBase) => {
    expect(codeOf(() => createPaySessionConfig({ apiBase }))).toBe('ok')
  })

  test.each([
    'http://api.example.com',
    'http://192.168.1.10:4010',
    'http://localhost.example.com',
    // The host is evil.example: "localhost:x" is user info.
    'http://localhost:x@evil.example/',
    'http://127.0.0.1@evil.example',
    'https://user:secret@api.example.com',
    'ftp://api.example.com',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('refuses %s with INSECURE_API_BASE', (apiBase) => {
    expect(codeOf(() => createPaySessionConfig({ apiBase }))).toBe('INSECURE_API_BASE')
  })

  test('the error says what to change, and a customer sentence', () => {
    try {
      createPaySessionConfig({ apiBase: 'http://api.example.com' })
      expect.unreachable()
    } catch (error) {
      const e = error as PaySessionError
      // The refused URL, and the docs heading that says what is accepted.
      expect(e.details).toBe('http://api.example.com')
      expect(e.message).toContain('docs/errors.md#insecure_api_base')
      expect(e.shortMessage).toMatch(/merchant/)
    }
  })
})

test('amounts compare exactly as decimals', () => {
  expect(isSameAmount('10.5', '10.50')).toBe(true)
  expect(isSameAmount('010.500', '10.5')).toBe(true)
  expect(isSameAmount('10', '10.00')).toBe(true)
  expect(isSameAmount('10.000000000000000001', '10')).toBe(false)
  expect(isSameAmount('10.51', '10.5')).toBe(false)
  expect(isSameAmount('1e1', '10')).toBe(false)
  expect(isSameAmount('10,50', '10.50')).toBe(false)
})

describe('expected amount and currency', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  })
  afterAll(async () => {
    await sb?.stop()
  })

  test('a session for another amount or currency is refused before any wallet prompt', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '25.00', 'USD')
    for (const [expectedAmount, expectedCurrency] of [
      ['10.00', 'USD'],
      ['25.00', 'EUR'],
    ] as const) {
      const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
      await withCheckout(
        config,
        session,
        async (checkout) => {
          const state = await waitForStep(checkout, 'failed')
          expect(state.error?.code).toBe('SESSION_MISMATCH')
          expect(state.error?.shortMessage).toMatch(/does not match/)
          expect(state.canRetry).toBe(false)
          checkout.payManually()
          expect(checkout.getState().step).toBe('failed')
        },
        {
          expectedAmount,
          expectedCurrency,
        },
      )

      // The action refuses too, for code that calls it directly.
      const direct = await getSession(config, {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      })
      const { connect, getConnection } = await import('@wagmi/core')
      if (getConnection(config.wagmiConfig).status !== 'connected')
        await connect(config.wagmiConfig, { connector: config.wagmiConfig.connectors[0]! })
      const refused = await payWithWallet(config, {
        session: direct,
        sessionToken: session.paymentSessionToken,
        token: 'USDC',
        expectedAmount,
        expectedCurrency,
      }).catch((error: PaySessionError) => error.code)
      expect(refused).toBe('SESSION_MISMATCH')
    }
    expect(
      await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
    ).toHaveLength(0)
  })

  test('a session already paid when the page loads is not shown paid for another order', async () => {
    const session = await createSession(sb, '25.00', 'USD')
    await sb.pay(session.paymentSessionId)
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[3]!.address))
    const ids = { sessionId: session.paymentSessionId, sessionToken: session.paymentSessionToken }
    await waitForSession(config, { ...ids, timeout: 20_000 })
    for (const [expected, outcome] of [
      [{ expectedAmount: '10.00', expectedCurrency: 'USD' }, 'failed'],
      [{ expectedAmount: '25.00', expectedCurrency: 'EUR' }, 'failed'],
      [{ expectedAmount: '25', expectedCurrency: 'usd' }, 'paid'],
    ] as const) {
      const checkout = createCheckout(config, { ...ids, ...expected })
      const steps: string[] = [checkout.getState().step]
      const stop = checkout.subscribe((state) => steps.push(state.step))
      try {
        const state = await waitForStep(checkout, outcome)
        if (outcome === 'failed') {
          expect(state.error?.code).toBe('SESSION_MISMATCH')
          // Never "paid" first, not even for an instant: the page's paid event would fire.
          expect(steps).not.toContain('paid')
          expect(state.session).toBeUndefined()
        } else expect(state.session?.status).toMatch(/FUNDED|CAPTURING|SUCCEEDED/)
      } finally {
        stop()
        checkout.destroy()
      }
    }
  })

  test('"25" and "25.000" are the amount "25.00": the checkout pays', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '25.00', 'USD')
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    await withCheckout(
      config,
      session,
      async (checkout) => {
        await connectAndChoose(checkout)
        await checkout.pay()
        await waitForStep(checkout, 'paid')
      },
      {
        expectedAmount: '25.000',
        expectedCurrency: 'usd',
      },
    )
    expect(
      await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
    ).toHaveLength(1)
  })
})
