import { createWalletClient, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createApiConfig,
  createCheckout,
  getSession,
  type PaySessionError,
  payWithWallet,
  reportFunding,
  waitForSession,
} from '../src/exports/index.js'
import {
  createSession,
  localChain,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startFlakyProxy,
  startSandbox,
  waitForStep,
  withCheckout,
} from './support.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    chainPort: 0,
    quiet: true,
    fundingWindowSeconds: 120,
    tokenTtlSeconds: 600,
  })
})
afterAll(async () => {
  await sb?.stop()
})
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: PaySessionError) => error.code,
  )
const config = () => paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address))

describe('service client (session token)', () => {
  test('a read without a wallet: createApiConfig checks the base URL and reads the session', async () => {
    const created = await createSession(sb, '10.00')
    const session = await getSession(createApiConfig({ apiBase: `${sb.apiUrl}/api/v1` }), {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    })
    expect(session).toMatchObject({
      paymentSessionId: created.paymentSessionId,
      amount: '10.00',
      network: 'LOCAL',
    })
    expect(() => createApiConfig({ apiBase: 'http://pay.example.com' })).toThrow(
      expect.objectContaining({ code: 'INSECURE_API_BASE' }),
    )
  })

  test('reads a new session on both base URL forms; CREATED or PENDING; extensions kept', async () => {
    const created = await createSession(sb, '10.00')
    for (const apiBase of [sb.apiUrl, `${sb.apiUrl}/api/v1/`]) {
      const session = await getSession(
        paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address), { apiBase }),
        {
          sessionId: created.paymentSessionId,
          sessionToken: created.paymentSessionToken,
        },
      )
      expect(['CREATED', 'PENDING']).toContain(session.status)
      expect(session).toMatchObject({
        amount: '10.00',
        currency: 'USD',
        network: 'LOCAL',
        tokenSymbol: 'USDC',
      })
      expect(session.oneTimeWalletAddress).toBe(created.oneTimeWalletAddress)
      expect(session.acceptedTokens).toEqual(['USDC', 'USDT'])
    }
  })

  test('HTTP errors map to stable codes', async () => {
    const a = await createSession(sb)
    const b = await createSession(sb)
    const c = config()
    expect(
      await codeOf(getSession(c, { sessionId: a.paymentSessionId, sessionToken: 'pst_nope' })),
    ).toBe('UNAUTHORIZED')
    // Another session's token: the sandbox answers 403 FORBIDDEN, which a customer reads as a
    // link that is not valid (the checkout treats it as a refused token).
    const forbidden = await getSession(c, {
      sessionId: a.paymentSessionId,
      sessionToken: b.paymentSessionToken,
    }).catch((e: PaySessionError) => e)
    expect(forbidden).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect(forbidden.shortMessage).toBe('This payment link is not valid.')
    expect(
      await codeOf(getSession(c, { sessionId: 'ps_missing', sessionToken: b.paymentSessionToken })),
    ).toMatch(/^(SESSION_NOT_FOUND|FORBIDDEN)$/)
    const error = await getSession(c, { sessionId: a.paymentSessionId, sessionToken: 'x' }).catch(
      (e) => e,
    )
    expect(error.status).toBeGreaterThanOrEqual(401)
    expect(error.shortMessage).toBeTypeOf('string')
  })

  test('reporting: idempotent success; a transaction that does not fund the session is refused', async () => {
    const created = await createSession(sb, '1.00')
    const params = {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    }
    const c = config()
    const payHash = await sb.pay(created.paymentSessionId)
    const first = await reportFunding(c, { ...params, hash: payHash })
    const again = await reportFunding(c, { ...params, hash: payHash })
    expect(first.success).toBe(true)
    expect(again.success).toBe(true)

    // A real transfer to somebody else.
    const other = await createSession(sb, '1.00')
    const wallet = createWalletClient({
      account: privateKeyToAccount(sb.customers[1]!.privateKey),
      chain: localChain(sb.rpcUrl),
      transport: http(sb.rpcUrl),
    })
    const stray = await wallet.writeContract({
      address: sb.tokens.USDC.address,
      abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
      functionName: 'transfer',
      args: [sb.treasury, 1n],
    })
    expect(
      await codeOf(
        reportFunding(c, {
          sessionId: other.paymentSessionId,
          sessionToken: other.paymentSessionToken,
          hash: stray,
          wait: true,
        }),
      ),
    ).toBe('TRANSACTION_DOES_NOT_FUND_SESSION')
  })

  test('API outage while reporting: the hash report is retried until acknowledged', async () => {
    let failures = 2
    const proxy = await startFlakyProxy(sb.apiUrl, (method, url) => {
      if (method === 'POST' && url.endsWith('/funding-transaction') && failures > 0) {
        failures--
        return true
      }
      return false
    })
    try {
      const created = await createSession(sb, '2.00')
      const wagmi = mockWagmi(sb, sb.customers[2]!.address)
      const c = paySessionConfig(sb, wagmi, { apiBase: proxy.url })
      const { connect } = await import('@wagmi/core')
      await connect(wagmi, { connector: wagmi.connectors[0]! })
      const session = await getSession(c, {
        sessionId: created.paymentSessionId,
        sessionToken: created.paymentSessionToken,
      })
      const result = await payWithWallet(c, {
        session,
        sessionToken: created.paymentSessionToken,
        token: 'USDT',
      })
      expect(result.reported).toBe(true)
      const reports = proxy.seen.filter((r) => r.url.endsWith('/funding-transaction'))
      expect(reports.map((r) => r.status)).toEqual([503, 503, 200])
      const after = await waitForSession(c, {
        sessionId: created.paymentSessionId,
        sessionToken: created.paymentSessionToken,
        timeout: 15_000,
      })
      expect(after.status).toBe('FUNDED')
      expect(after.userSubmittedTransactionHash).toBe(result.hash)
    } finally {
      await proxy.close()
    }
  })
})

describe('expiry', () => {
  test('the funding window ends while the checkout is open: "expired" with SESSION_EXPIRED', async () => {
    const created = await createSession(sb, '1.00')
    await withCheckout(config(), created, async (checkout) => {
      await waitForStep(checkout, 'chooseWallet')
      sb.clock.advance(121) // past the 120 s funding window; the token (600 s) is still valid
      const expired = await waitForStep(checkout, 'expired') // noticed by polling
      expect(expired.session?.status).toBe('CANCELED')
      expect(expired.error?.code).toBe('SESSION_EXPIRED')
      expect(expired.canRetry).toBe(false)
    })
  })

  test('an expired session token: SESSION_TOKEN_EXPIRED; the checkout cannot follow it, never "expired"', async () => {
    const created = await createSession(sb, '1.00')
    const params = {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    }
    sb.clock.advance(601)
    expect(await codeOf(getSession(config(), params))).toBe('SESSION_TOKEN_EXPIRED')
    const checkout = createCheckout(config(), params)
    try {
      // An expired token is not an expired session: nothing known, nothing claimed.
      const state = await waitForStep(checkout, 'untracked')
      expect(state.error?.code).toBe('SESSION_TOKEN_EXPIRED')
    } finally {
      checkout.destroy()
    }
  })
})
