import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, http, type Transport } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { rpcTransport } from '../src/chain/transport.js'

// The transport core builds its wagmi config with answers as viem's `http` does, request for
// request, against a real HTTP server playing a JSON-RPC node.

type Seen = { authorization: string | undefined; url: string | undefined; body: string }
let server: Server
let base: string
let seen: Seen[] = []
let failures = 0

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', () => resolve(text))
  })

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await read(request)
    seen.push({ authorization: request.headers.authorization, url: request.url, body })
    const { id, method } = JSON.parse(body)
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify(value))
    }
    if (method === 'eth_blockNumber') return json(200, { jsonrpc: '2.0', id, result: '0x2a' })
    if (method === 'eth_unknown')
      return json(200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } })
    if (method === 'eth_flaky' && failures++ < 2) return json(503, { error: 'busy' })
    if (method === 'eth_flaky') return json(200, { jsonrpc: '2.0', id, result: '0x1' })
    if (method === 'eth_down') return json(500, { error: 'down' })
    if (method === 'eth_slow') return setTimeout(() => json(200, { jsonrpc: '2.0', id }), 500)
    if (method === 'eth_rpcFailure')
      return json(500, { jsonrpc: '2.0', id, error: { code: -32000, message: 'header not found' } })
    if (method === 'eth_gateway') {
      response.writeHead(502, { 'Content-Type': 'text/html' })
      return response.end('<html>Bad Gateway</html>')
    }
    if (method === 'eth_garbled') {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      return response.end('{"jsonrpc":')
    }
    if (method === 'eth_huge') return json(200, { jsonrpc: '2.0', id, result: 'x'.repeat(11e6) })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** What a client on the transport gets for `method`, and the requests the server saw. */
async function outcome(transport: (url: string) => Transport, method: string, url = `${base}/rpc`) {
  seen = []
  failures = 0
  const client = createClient({ transport: transport(url) })
  const result = await client
    .request({ method: method as 'eth_blockNumber' }, { retryDelay: 1 })
    .then(
      (value) => ({ value }),
      (error) => ({
        error: error.constructor.name,
        code: error.code,
        status: error.status,
        shortMessage: error.shortMessage,
      }),
    )
  const requests = seen.map(({ authorization, url, body }) => ({
    authorization,
    url,
    body: { ...JSON.parse(body), id: 'any' },
  }))
  return { result, requests, transportUrl: (client.transport as { url?: string }).url }
}

const expected: Record<string, object> = {
  eth_blockNumber: { value: '0x2a', requests: 1 },
  eth_unknown: { error: 'MethodNotFoundRpcError', code: -32601, requests: 1 },
  // Retried by viem's buildRequest (503), then answered.
  eth_flaky: { value: '0x1', requests: 3 },
  eth_down: { error: 'HttpRequestError', status: 500, requests: 4 },
  // A JSON-RPC error in a failed response is that error.
  eth_rpcFailure: { error: 'InvalidInputRpcError', code: -32000, requests: 1 },
  // Not JSON, failed: the status and the body; 502 is retried.
  eth_gateway: { error: 'HttpRequestError', status: 502, requests: 4 },
  // viem retries these too.
  eth_garbled: { error: 'HttpRequestError', requests: 4 },
  eth_huge: { error: 'ResponseBodyTooLargeError', requests: 4 },
}

test.each(Object.keys(expected))(
  '%s: the same answer, errors and retries as viem http',
  async (method) => {
    const ours = await outcome((url) => rpcTransport(url), method)
    const viems = await outcome((url) => http(url), method)
    expect(ours).toEqual(viems)
    expect(ours.transportUrl).toBe(`${base}/rpc`)
    expect({ ...ours.result, requests: ours.requests.length }).toMatchObject(expected[method]!)
  },
)

test('a basic-auth URL: credentials go in the Authorization header, as viem http sends them', async () => {
  const url = `${base.replace('//', '//user:s%40cret@')}/rpc`
  const ours = await outcome((u) => rpcTransport(u), 'eth_blockNumber', url)
  expect(ours).toEqual(await outcome((u) => http(u), 'eth_blockNumber', url))
  expect(ours.requests[0]!.authorization).toBe(`Basic ${btoa('user:s@cret')}`)
})

test('a node slower than the time-out: a TimeoutError, as with viem http', async () => {
  const timed = (create: (url: string) => Transport) => async () => {
    const client = createClient({ transport: create(`${base}/rpc`) })
    return client
      .request({ method: 'eth_slow' as 'eth_blockNumber' }, { retryCount: 0 })
      .catch((error) => error.constructor.name)
  }
  expect(await timed((url) => rpcTransport(url, { timeout: 100 }))()).toBe('TimeoutError')
  expect(await timed((url) => http(url, { timeout: 100 }))()).toBe('TimeoutError')
})
