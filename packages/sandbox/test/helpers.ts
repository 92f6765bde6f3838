import { type Address, createPublicClient, http, parseAbi } from 'viem'
import type { Sandbox } from '../src/index.js'

/** A tiny HTTP client for the sandbox's API in tests: returns status and parsed JSON. */
export function api(sb: Sandbox) {
  return async (
    method: string,
    path: string,
    options: { auth?: string; body?: unknown; raw?: string; contentType?: string } = {},
  ) => {
    const headers: Record<string, string> = {}
    if (options.auth) headers.authorization = `Bearer ${options.auth}`
    const body =
      options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
    const res = await fetch(`${sb.apiUrl}${path}`, { method, headers, body })
    const text = await res.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = text
    }
    return { status: res.status, json }
  }
}

export async function createSession(
  sb: Sandbox,
  body: Record<string, unknown> = { amount: '10.00', currency: 'USD' },
) {
  const res = await api(sb)('POST', '/api/v1/payment-sessions', { auth: sb.apiKey, body })
  if (res.status !== 200)
    throw new Error(`create failed: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json as {
    paymentSessionId: string
    paymentSessionToken: string
    oneTimeWalletAddress: Address
  } & Record<string, any>
}

/** Polls until the session (read with the API key) satisfies `done`, or fails after `timeoutMs`. */
export async function waitForSession(
  sb: Sandbox,
  id: string,
  done: (s: any) => boolean,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs
  let last: any
  while (Date.now() < deadline) {
    last = (await api(sb)('GET', `/payment-sessions/${id}`, { auth: sb.apiKey })).json
    if (done(last)) return last
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`session ${id} never reached the expected state; last: ${JSON.stringify(last)}`)
}

export function balances(sb: Sandbox) {
  const client = createPublicClient({ transport: http(sb.rpcUrl), cacheTime: 0 })
  const abi = parseAbi(['function balanceOf(address) view returns (uint256)'])
  return (token: Address, owner: Address) =>
    client.readContract({ address: token, abi, functionName: 'balanceOf', args: [owner] })
}
