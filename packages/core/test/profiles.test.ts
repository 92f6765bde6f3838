import type { Profile } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getSession, reportFunding, waitForSession } from '../src/exports/index.js'
import {
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  transfersTo,
  waitForStep,
  withCheckout,
} from './support.js'

// The checkout's main flow against both sandbox profiles: `default` (every extension) and
// `strict` (only the fields, names, paths and credentials the spec shows). Sessions are created
// under the spec's path form, and read only with the session token.
describe.each<Profile>(['default', 'strict'])('checkout against the %s profile', (profile) => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, profile })
  })
  afterAll(async () => {
    await sb?.stop()
  })

  async function create(amount: string, currency: string) {
    const response = await fetch(`${sb.apiUrl}/payment-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount, currency }),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as { paymentSessionId: string; paymentSessionToken: string }
  }

  async function finalCapture(sessionId: string, amount: string) {
    const response = await fetch(`${sb.apiUrl}/api/v1/payment-sessions/${sessionId}/captures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requestId: crypto.randomUUID(),
        captureAmount: amount,
        isFinalCapture: true,
        finalCapture: true,
      }),
    })
    expect(response.status).toBe(202)
  }

  // Strict sessions carry no acceptedTokens: the one token offered is the session's tokenSymbol.
  type Case = [
    currency: string,
    symbol: 'USDC' | 'USDT' | 'EURC',
    amount: string,
    offered: string[],
  ]
  const cases: Case[] =
    profile === 'strict'
      ? [
          ['USD', 'USDC', '12.50', ['USDC']],
          ['EUR', 'EURC', '3.10', ['EURC']],
        ]
      : [
          ['USD', 'USDC', '12.50', ['USDC', 'USDT']],
          ['USD', 'USDT', '7.25', ['USDC', 'USDT']],
          ['EUR', 'EURC', '3.10', ['EURC']],
        ]

  test.each(cases)(
    'a %s session paid with %s reaches paid, then completed',
    async (currency, symbol, amount, offered) => {
      const customer = sb.customers[3]!
      const created = await create(amount, currency)
      const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
      await withCheckout(config, created, async (checkout) => {
        const start = await waitForStep(checkout, 'chooseWallet')
        expect(start.amount).toBe(amount)
        expect(start.network?.name).toBe('LOCAL')
        await checkout.connect('mock')
        // One token offered: nothing to choose, straight to the review of it.
        const choose = await waitForStep(checkout, offered.length === 1 ? 'review' : 'chooseToken')
        expect(choose.tokens.map((t) => t.symbol)).toEqual(offered)
        if (offered.length > 1) checkout.selectToken(symbol)
        expect(checkout.getState()).toMatchObject({ step: 'review', selectedToken: symbol })
        await checkout.pay()
        const paid = await waitForStep(checkout, 'paid')
        const session = await getSession(config, {
          sessionId: created.paymentSessionId,
          sessionToken: created.paymentSessionToken,
        })
        expect(session.status).toBe('FUNDED')
        const transfers = await transfersTo(
          sb,
          sb.tokens[symbol].address,
          session.oneTimeWalletAddress as `0x${string}`,
        )
        expect(transfers.map((t) => t.transactionHash)).toEqual([paid.hash])

        // Reporting again is idempotent, whatever 2xx the service answers with.
        const report = await reportFunding(config, {
          sessionId: created.paymentSessionId,
          sessionToken: created.paymentSessionToken,
          hash: paid.hash!,
        })
        expect(report.success).toBe(true)

        await finalCapture(created.paymentSessionId, amount)
        await waitForStep(checkout, 'completed')
        const settled = await waitForSession(config, {
          sessionId: created.paymentSessionId,
          sessionToken: created.paymentSessionToken,
          until: (s) => s.status === 'SUCCEEDED',
          timeout: 20_000,
        })
        expect(settled.status).toBe('SUCCEEDED')
      })
    },
  )
})
