import type { Sandbox } from '@paysession/sandbox'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPaySessionClient, isPaySessionError } from '../src/index.js'
import { codeOf, countingProxy, type RelayKit, startRelayKit } from './relayHelpers.js'

// `encodeURIComponent` leaves `.` and `..` as they are, and a URL resolves them as steps up the
// path: `GET /payment-sessions/..` is a request for another resource with the API key. Such an
// id is refused before anything is sent, by the client and by the relay; the real sandbox sits
// behind a proxy that counts what reaches it.
let sb: Sandbox
let kit: RelayKit
beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit())
}, 60_000)
afterAll(() => sb?.stop())

const notPlain = ['.', '..', '']

test('the client refuses a session or capture id that would be a path step, sending nothing', async () => {
  const api = await countingProxy(sb.apiUrl)
  try {
    const client = createPaySessionClient({ apiBase: api.url, apiKey: sb.apiKey, retry: false })
    const { paymentSessionId } = await client.createSession({ amount: '1.00', currency: 'USD' })
    const before = api.count
    const calls = notPlain.flatMap((id) => [
      () => client.getSession(id),
      () => client.getSession(id, { sessionToken: 'pst_x' }),
      () => client.createCapture(id, { captureAmount: '1.00' }),
      () => client.getCapture(id, 'cap_1'),
      () => client.getCapture(paymentSessionId, id),
    ])
    for (const call of calls) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(isPaySessionError(error, 'INVALID_REQUEST'), String(error)).toBe(true)
      expect(String(error)).toMatch(/must be a non-empty string other than "\." and "\.\."/)
    }
    expect(api.count - before).toBe(0)
    // A plain id still goes through, encoded.
    expect((await client.getSession(paymentSessionId)).paymentSessionId).toBe(paymentSessionId)
    expect(api.count - before).toBe(1)
  } finally {
    await api.close()
  }
})

test('the relay refuses such a session id before it reads the session with the API key', async () => {
  const api = await countingProxy(sb.apiUrl)
  try {
    const relay = kit.relayWith({
      client: createPaySessionClient({ apiBase: api.url, apiKey: sb.apiKey, retry: false }),
      rateLimit: false,
    })
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    for (const id of ['.', '..']) {
      // Correctly signed by the payer, so only the id is wrong.
      const answer = await relay(kit.relayRequest(id, await kit.authorize(customer.key, s.otw)))
      expect(await codeOf(answer), id).toEqual([400, 'RELAY_REFUSED'])
    }
    expect(api.count).toBe(0)
    expect(await kit.transfersTo(s.otw)).toHaveLength(0)
  } finally {
    await api.close()
  }
})
