import { createHmac } from 'node:crypto'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const secret = 'whsec_test_0123456789abcdef'

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Signs like the sandbox does, independently of the code under test. */
export function sign(body: string, { key = secret, t = nowSeconds() } = {}): string {
  const v1 = createHmac('sha256', key).update(`${t}.${body}`).digest('hex')
  return `t=${t},v1=${v1}`
}

export type Update = {
  merchantId?: unknown
  paymentSessionId?: unknown
  status?: unknown
  updatedAt?: unknown
}

export function statusUpdate(id: unknown = 'evt_1', update: Update = {}, extra: object = {}) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'paysession_paymentStatusUpdate',
    params: [
      {
        merchantId: 'mer_1',
        paymentSessionId: 'ps_0123456789abcdef01234567',
        status: 'FUNDED',
        updatedAt: '2025-01-01T00:00:00.000Z',
        ...update,
      },
    ],
    ...extra,
  })
}

export function webhookRequest(
  body: string,
  headers: Record<string, string> = {},
  method = 'POST',
) {
  return new Request('http://merchant.test/webhooks/paysession', {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(method === 'GET' ? {} : { body }),
  })
}

export async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://127.0.0.1:${port}` }
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
}

/** Polls `read` until `done` holds, or fails after `timeoutMs`. */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** ERC-20 balanceOf over plain JSON-RPC, as a decimal string with 6 decimals. */
export async function tokenBalance(rpcUrl: string, token: string, owner: string): Promise<string> {
  const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, '0')}`
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: token, data }, 'latest'],
    }),
  })
  const { result } = (await response.json()) as { result: string }
  const units = BigInt(result)
  return `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`
}
