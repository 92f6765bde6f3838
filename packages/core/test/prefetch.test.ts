import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  createApiConfig,
  getSession,
  type PaySessionError,
  prefetchSession,
} from '../src/exports/index.js'
import { createSession, type Sandbox, startSandbox } from './support.js'

// prefetchSession: the widget's first file sends the session's request before the code that
// reads it has loaded. Against the real sandbox over HTTP.
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(() => sb?.stop())

/** The platform's fetch, keeping the address of every request it sends. */
function counted() {
  const sent: string[] = []
  const fetch: typeof globalThis.fetch = (input, init) => {
    sent.push(String(input))
    return globalThis.fetch(input, init)
  }
  return { sent, fetch }
}

test('the request leaves at once; getSession reads its answer and sends no other', async () => {
  const created = await createSession(sb, '10.00')
  const ids = { sessionId: created.paymentSessionId, sessionToken: created.paymentSessionToken }
  const apiBase = `${sb.apiUrl}/api/v1/`
  const { sent, fetch } = counted()
  const early = prefetchSession({ apiBase, ...ids, fetch })
  expect(sent).toEqual([`${sb.apiUrl}/payment-sessions/${created.paymentSessionId}`])
  const session = await getSession(createApiConfig({ apiBase, fetch: early }), ids)
  expect(session).toMatchObject({ paymentSessionId: created.paymentSessionId, amount: '10.00' })
  expect(sent).toHaveLength(1)
  // Its answer serves once: the next read sends its own request.
  await getSession(createApiConfig({ apiBase, fetch: early }), ids)
  expect(sent).toHaveLength(2)
})

test('never where getSession would not send: an insecure or relative service, an id that is a path step', async () => {
  const { sent, fetch } = counted()
  const ids = { sessionId: 'ps_1', sessionToken: 'secret' }
  prefetchSession({ apiBase: 'http://pay.example.com', ...ids, fetch })
  prefetchSession({ apiBase: 'https://user:pw@pay.example.com', ...ids, fetch })
  prefetchSession({ apiBase: '/pay-api', ...ids, fetch })
  prefetchSession({ apiBase: sb.apiUrl, sessionId: '..', sessionToken: 'secret', fetch })
  expect(sent).toEqual([])
  // getSession then says what is wrong, as without the prefetch.
  const early = prefetchSession({ apiBase: 'http://pay.example.com', ...ids, fetch })
  expect(() => createApiConfig({ apiBase: 'http://pay.example.com', fetch: early })).toThrow(
    expect.objectContaining({ code: 'INSECURE_API_BASE' }),
  )
})

test("getSession's time-out ends the early request too", async () => {
  // A service that takes the request and never answers.
  const server = createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const ids = { sessionId: 'ps_1', sessionToken: 'token' }
    const fetch = prefetchSession({ apiBase, ...ids })
    const error = await getSession(
      createApiConfig({ apiBase, fetch, requestTimeout: 300 }),
      ids,
    ).then(
      () => undefined,
      (e: PaySessionError) => e,
    )
    expect(error).toMatchObject({ code: 'API_UNAVAILABLE', details: 'request timed out' })
  } finally {
    server.closeAllConnections()
    server.close()
  }
})
