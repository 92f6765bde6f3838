import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApiConfig, getSession } from '../../packages/core/src/exports/index.js'
import { createPaySessionClient } from '../../packages/server/src/index.js'

// The two clients of the service, core's (session token) and the server's (API key), read the
// same HTTP answers the same way: one mapping of status and body to a code (protocol's
// serviceErrorCode), the same path forms. A real HTTP server plays the answers.

let server: Server
let base = ''
let answer: { status: number; body?: unknown; type?: string } = { status: 200 }
const paths: string[] = []
beforeAll(async () => {
  server = createServer((request, response) => {
    paths.push(request.url ?? '')
    const { status, body, type = 'application/json' } = answer
    response.writeHead(status, { 'content-type': type })
    response.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

const codes = async () => {
  const core = await getSession(createApiConfig({ apiBase: base }), {
    sessionId: 'ps_1',
    sessionToken: 'pst_1',
  }).catch((error) => error.code)
  const merchant = await createPaySessionClient({ apiBase: base, apiKey: 'sk', retry: false })
    .getSession('ps_1')
    .catch((error) => error.code)
  return { core, merchant }
}

test.each([
  [400, undefined, 'INVALID_REQUEST'],
  [401, undefined, 'UNAUTHORIZED'],
  [403, undefined, 'FORBIDDEN'],
  [404, undefined, 'SESSION_NOT_FOUND'],
  [404, { error: { code: 'SESSION_NOT_FOUND', message: 'no' } }, 'SESSION_NOT_FOUND'],
  [401, { error: { code: 'SESSION_TOKEN_EXPIRED' } }, 'SESSION_TOKEN_EXPIRED'],
  [409, undefined, 'API_ERROR'],
  [422, { error: { code: 'SOMETHING_NEW' } }, 'INVALID_REQUEST'],
  [503, { error: { code: 'SESSION_NOT_FOUND' } }, 'API_UNAVAILABLE'],
])('%i %j: both clients say %s', async (status, body, code) => {
  answer = { status, body: body ?? { error: {} } }
  expect(await codes()).toEqual({ core: code, merchant: code })
})

test('both try the other path form after an unknown route, in the same order', async () => {
  answer = { status: 404, body: 'Not Found', type: 'text/plain' }
  paths.length = 0
  expect(await codes()).toEqual({ core: 'SESSION_NOT_FOUND', merchant: 'SESSION_NOT_FOUND' })
  expect(paths).toEqual([
    '/payment-sessions/ps_1',
    '/api/v1/payment-sessions/ps_1',
    '/payment-sessions/ps_1',
    '/api/v1/payment-sessions/ps_1',
  ])
})
