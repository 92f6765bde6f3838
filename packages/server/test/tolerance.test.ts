import { type Sandbox, startRewritingProxy, startSandbox } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaySessionClient, PaySessionError } from '../src/index.js'
import { until } from './helpers.js'

// The same rule as core's (both use @paysession/protocol): a real service behind a real proxy
// answers extensions with other types; a listed field of the wrong type is still refused.
const oddExtensions = {
  expiresAt: 1_700_000_000,
  chainId: '31337',
  acceptedTokens: 'USDC,USDT',
  receivedAmount: 0,
  paymentSessionTokenExpiresAt: false,
  futureField: { nested: true },
}
const sessionAnswer = (method: string, url: string) =>
  /\/payment-sessions(\/[^/?]+)?$/.test(url) && !(method === 'GET' && /sessions$/.test(url))

let sb: Sandbox
let odd: Awaited<ReturnType<typeof startRewritingProxy>>
let badListed: Awaited<ReturnType<typeof startRewritingProxy>>
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  odd = await startRewritingProxy(sb.apiUrl, (body, method, url) => {
    if (!sessionAnswer(method, url)) return undefined
    const captures = Array.isArray(body.captures)
      ? [...body.captures, { status: 'CAPTURED', captureTransferTransactionHash: null }]
      : undefined
    return { ...body, ...oddExtensions, ...(captures ? { captures } : {}) }
  })
  badListed = await startRewritingProxy(sb.apiUrl, (body, method, url) =>
    sessionAnswer(method, url) ? { ...body, capturableAmount: 5 } : undefined,
  )
})
afterAll(async () => {
  await odd?.close()
  await badListed?.close()
  await sb?.stop()
})

describe('extensions of another type', () => {
  it('are ignored by create and get session; listed fields are kept', async () => {
    const client = createPaySessionClient({ apiBase: odd.url, apiKey: sb.apiKey })
    const created = await client.createSession({ amount: '6.00', currency: 'USD' })
    expect(created).toMatchObject({ amount: '6.00', currency: 'USD', tokenSymbol: 'USDC' })
    expect(created).not.toHaveProperty('paymentSessionTokenExpiresAt')
    await sb.pay(created.paymentSessionId)
    const session = await until(
      () => client.getSession(created.paymentSessionId),
      (s) => s.status === 'FUNDED',
    )
    expect(session).toMatchObject({ capturableAmount: '6.00', futureField: { nested: true } })
    for (const key of ['expiresAt', 'chainId', 'acceptedTokens', 'receivedAmount'])
      expect(session).not.toHaveProperty(key)
  })

  it('a captures element that is not a complete capture is left out, not fatal', async () => {
    const client = createPaySessionClient({ apiBase: odd.url, apiKey: sb.apiKey })
    const created = await client.createSession({ amount: '2.00', currency: 'USD' })
    await sb.pay(created.paymentSessionId)
    await until(
      () => client.getSession(created.paymentSessionId),
      (s) => s.status === 'FUNDED',
    )
    const capture = await client.createCapture(created.paymentSessionId, {
      captureAmount: '1.00',
    })
    const session = await client.getSession(created.paymentSessionId)
    expect(session.captures?.map((c) => c.captureId)).toEqual([capture.captureId])
  })

  it('a listed field of the wrong type is still INVALID_RESPONSE', async () => {
    const client = createPaySessionClient({ apiBase: badListed.url, apiKey: sb.apiKey })
    const error = await client
      .createSession({ amount: '1.00', currency: 'USD' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaySessionError)
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE' })
  })
})

it('one error class: server re-exports the protocol class (the same as core)', async () => {
  const protocol = await import('@paysession/protocol')
  expect(PaySessionError).toBe(protocol.PaySessionError)
  expect(new protocol.PaySessionError('TIMEOUT')).toBeInstanceOf(PaySessionError)
})
