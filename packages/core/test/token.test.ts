// An expired or refused session token is not an expired session: the checkout asks the page for
// a fresh token, else learns what it can from the chain, and never says "expired" for it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createCheckout, createMemoryStorage } from '../src/exports/index.js'
import {
  connectAndChoose,
  createSession,
  mockWagmi,
  paySessionConfig,
  recordSteps,
  type Sandbox,
  startSandbox,
  transfersTo,
  waitForStep,
  withCheckout,
} from './support.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

const tokenLifetime = 3600

/** The sandbox's extension (API key): a fresh session token for the merchant's page. */
async function renewToken(sessionId: string) {
  const response = await fetch(`${sb.apiUrl}/api/v1/payment-sessions/${sessionId}/session-token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  })
  expect(response.status).toBe(200)
  const body = (await response.json()) as { paymentSessionToken: string }
  return body.paymentSessionToken
}

describe('token expired', () => {
  test('no fresh token, paid on chain after the token lifetime: shows paid, never expired', async () => {
    const customer = sb.customers[1]!
    const session = await createSession(sb, '4.00')
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    await withCheckout(config, session, async (checkout, steps) => {
      await waitForStep(checkout, 'chooseWallet')
      sb.clock.advance(tokenLifetime + 60)
      // The service refuses the token now: the checkout cannot follow it there.
      const untracked = await waitForStep(checkout, 'untracked')
      expect(untracked.error?.code).toBe('SESSION_TOKEN_EXPIRED')
      // The customer pays from elsewhere (in USDT), inside the 24 h funding window.
      await sb.pay(session.paymentSessionId, { token: 'USDT' })
      const paid = await waitForStep(checkout, 'paid')
      expect(paid.error).toBeUndefined()
      expect(paid.session?.tokenSymbol).toBe('USDT')
      expect(steps).not.toContain('expired')
      expect(steps).not.toContain('failed')
    })
  })

  test('paying by hand past the token lifetime: the manual step stays, the chain shows it paid', async () => {
    const session = await createSession(sb, '5.00')
    await withCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address)),
      session,
      async (checkout, steps) => {
        await waitForStep(checkout, 'chooseWallet')
        checkout.payManually()
        expect(checkout.getState().step).toBe('manual')
        sb.clock.advance(tokenLifetime + 60)
        // The customer keeps the address ("pay before" the funding window), the service refuses
        // the token: the step stays, and the chain is watched behind it.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        expect(checkout.getState().step).toBe('manual')
        await sb.pay(session.paymentSessionId)
        await waitForStep(checkout, 'paid')
        expect(steps).not.toContain('expired')
        expect(steps).not.toContain('untracked')
      },
    )
  })

  test('no fresh token, page opened after the token lifetime: the stored facts and the chain decide', async () => {
    const session = await createSession(sb, '2.00')
    const storage = createMemoryStorage()
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address), { storage })
    const first = createCheckout(config, {
      sessionId: session.paymentSessionId,
      sessionToken: session.paymentSessionToken,
    })
    await waitForStep(first, 'chooseWallet')
    first.destroy()
    await sb.pay(session.paymentSessionId)
    sb.clock.advance(tokenLifetime + 60)

    const second = createCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address), { storage }),
      { sessionId: session.paymentSessionId, sessionToken: session.paymentSessionToken },
    )
    const steps = recordSteps(second)
    try {
      await waitForStep(second, 'paid')
      expect(steps).not.toContain('expired')
    } finally {
      second.destroy()
    }
  })

  test('no fresh token, nothing known about the session: cannot be followed here, not expired', async () => {
    const session = await createSession(sb, '2.00')
    sb.clock.advance(tokenLifetime + 60)
    await withCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address)),
      session,
      async (checkout, steps) => {
        const state = await waitForStep(checkout, 'untracked')
        expect(state.error?.code).toBe('SESSION_TOKEN_EXPIRED')
        expect(steps).not.toContain('expired')
      },
    )
  })

  test('the page hands a fresh token: pays after the token lifetime through the service', async () => {
    const customer = sb.customers[2]!
    const session = await createSession(sb, '3.00')
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    let asked = 0
    await withCheckout(
      config,
      session,
      async (checkout, steps) => {
        await connectAndChoose(checkout)
        sb.clock.advance(tokenLifetime + 60)
        await checkout.pay()
        const paid = await waitForStep(checkout, 'paid')
        expect(paid.session?.status).toBe('FUNDED')
        expect(asked).toBeGreaterThanOrEqual(1)
        expect(steps).not.toContain('expired')
        expect(steps).not.toContain('untracked')
        expect(
          await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
        ).toHaveLength(1)
      },
      {
        getSessionToken: async () => {
          asked++
          return renewToken(session.paymentSessionId)
        },
      },
    )
  })

  test('opened after the token lifetime with a token provider: loads as usual', async () => {
    const session = await createSession(sb, '3.00')
    sb.clock.advance(tokenLifetime + 60)
    await withCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[2]!.address)),
      session,
      async (checkout) => {
        const state = await waitForStep(checkout, 'chooseWallet')
        expect(state.error).toBeUndefined()
        expect(state.session?.status).toBe('CREATED')
      },
      {
        getSessionToken: () => renewToken(session.paymentSessionId),
      },
    )
  })
})
