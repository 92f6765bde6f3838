import { startRewritingProxy } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getSession, type PaySessionError } from '../src/exports/index.js'
import {
  createSession,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  waitForStep,
  withCheckout,
} from './support.js'

// Tolerant of what the spec does not promise, strict about what it does: a real service (the
// sandbox behind a real rewriting proxy) answers with extensions of other types, and with names
// in another case. Nothing here is mocked.
/** Every extension of the sandbox's session, with another type than the one the SDK uses. */
const oddExtensions = {
  expiresAt: 1_700_000_000,
  chainId: '31337',
  acceptedTokens: 'USDC,USDT',
  receivedAmount: 0,
  paymentSessionTokenExpiresAt: false,
  futureField: { nested: true },
}

/** Is this a session answer (create or get), not a capture or a list? */
const isSessionAnswer = (method: string, url: string) =>
  /\/payment-sessions(\/[^/?]+)?(\?.*)?$/.test(url) &&
  !(method === 'GET' && /sessions(\?|$)/.test(url))

let sb: Sandbox
let odd: Awaited<ReturnType<typeof startRewritingProxy>>
let badListed: Awaited<ReturnType<typeof startRewritingProxy>>
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  odd = await startRewritingProxy(sb.apiUrl, (body, method, url) =>
    isSessionAnswer(method, url)
      ? {
          ...body,
          ...oddExtensions,
          tokenSymbol: String(body.tokenSymbol).toLowerCase(),
          network: String(body.network).toLowerCase(),
        }
      : undefined,
  )
  badListed = await startRewritingProxy(sb.apiUrl, (body, method, url) =>
    isSessionAnswer(method, url) ? { ...body, userAddress: 42 } : undefined,
  )
})
afterAll(async () => {
  await odd?.close()
  await badListed?.close()
  await sb?.stop()
})

describe('extensions of another type', () => {
  test('are ignored, listed fields kept, names shown in the registry spelling', async () => {
    const created = await createSession(sb, '4.20')
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address), {
      apiBase: odd.url,
    })
    const session = await getSession(config, {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    })
    expect(session).toMatchObject({
      paymentSessionId: created.paymentSessionId,
      amount: '4.20',
      tokenSymbol: 'USDC',
      network: 'LOCAL',
      futureField: { nested: true },
    })
    for (const key of ['expiresAt', 'chainId', 'acceptedTokens', 'receivedAmount'])
      expect(session).not.toHaveProperty(key)
  })

  test('the checkout still pays: the one token offered is the session tokenSymbol', async () => {
    const created = await createSession(sb, '2.30')
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[4]!.address), {
      apiBase: odd.url,
    })
    await withCheckout(config, created, async (checkout) => {
      await waitForStep(checkout, 'chooseWallet')
      await checkout.connect('mock')
      // A list of one is skipped: straight to the review of that token.
      const choose = await waitForStep(checkout, 'review')
      expect(choose.tokens.map((t) => t.symbol)).toEqual(['USDC'])
      expect(choose.session?.tokenSymbol).toBe('USDC')
      expect(choose.selectedToken).toBe('USDC')
      await checkout.pay()
      const paid = await waitForStep(checkout, 'paid')
      expect(paid.hash).toMatch(/^0x[0-9a-f]{64}$/)
    })
  })

  test('a listed field of the wrong type is still INVALID_RESPONSE', async () => {
    const created = await createSession(sb, '1.10')
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address), {
      apiBase: badListed.url,
    })
    const error = await getSession(config, {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    }).catch((e: PaySessionError) => e)
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE' })
  })
})

test('one error class: core re-exports the protocol class', async () => {
  const protocol = await import('@paysession/protocol')
  const core = await import('../src/exports/index.js')
  expect(core.PaySessionError).toBe(protocol.PaySessionError)
  expect(new protocol.PaySessionError('TIMEOUT')).toBeInstanceOf(core.PaySessionError)
})
