import { type Address, createPublicClient, type Hex, http, type PublicClient, parseAbi } from 'viem'
import { expect } from 'vitest'
import { type Sandbox, type SandboxOptions, startSandbox } from '../src/index.js'

/** Starts a throwaway sandbox on free ports; fast polling so tests do not wait long. */
export function start(options: SandboxOptions = {}) {
  return startSandbox({ port: 0, chainPort: 0, quiet: true, interval: 50, ...options })
}

export interface ApiResponse {
  status: number
  json: any
  headers: Headers
}

/** A tiny HTTP client for the sandbox's API in tests: returns status and parsed JSON. */
export function api(sb: Sandbox) {
  return async (
    method: string,
    path: string,
    options: {
      auth?: string
      body?: unknown
      raw?: string
      contentType?: string
      headers?: Record<string, string>
    } = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.auth) headers.authorization = `Bearer ${options.auth}`
    const body =
      options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    if (body !== undefined && !('content-type' in headers))
      headers['content-type'] = options.contentType ?? 'application/json'
    const res = await fetch(`${sb.apiUrl}${path}`, { method, headers, body })
    const text = await res.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = text
    }
    return { status: res.status, json, headers: res.headers }
  }
}

export type SessionJson = {
  paymentSessionId: string
  paymentSessionToken: string
  oneTimeWalletAddress: Address
} & Record<string, any>

export async function createSession(
  sb: Sandbox,
  body: Record<string, unknown> = { amount: '10.00', currency: 'USD' },
) {
  const res = await api(sb)('POST', '/api/v1/payment-sessions', { auth: sb.apiKey, body })
  if (res.status !== 200)
    throw new Error(`create failed: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json as SessionJson
}

/** Reads a session with the merchant API key. */
export async function getSession(sb: Sandbox, id: string) {
  const res = await api(sb)('GET', `/api/v1/payment-sessions/${id}`, { auth: sb.apiKey })
  if (res.status !== 200) throw new Error(`get failed: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json as Record<string, any>
}

/** Polls `read` until `done` holds, or fails after `timeoutMs` with the last value. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    last = await read()
    if (done(last)) return last
    await sleep(40)
  }
  throw new Error(`${what} never held; last: ${JSON.stringify(last, bigintJson)}`)
}

const bigintJson = (_: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)

/** Polls until the session (read with the API key) satisfies `done`, or fails after `timeoutMs`. */
export function waitForSession(
  sb: Sandbox,
  id: string,
  done: (s: any) => boolean,
  timeoutMs = 15_000,
) {
  return waitUntil(() => getSession(sb, id), done, timeoutMs, `session ${id}`)
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Creates a session, pays it in full from customer 0 (or as told) and waits until FUNDED. */
export async function fundedSession(
  sb: Sandbox,
  body: Record<string, unknown> = { amount: '10.00', currency: 'USD' },
  pay: { token?: string; amount?: string; from?: Hex } = {},
) {
  const s = await createSession(sb, body)
  const hash = await sb.pay(s.paymentSessionId, pay)
  const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  return { created: s, funded, hash }
}

export function capture(
  sb: Sandbox,
  id: string,
  body: Record<string, unknown>,
  prefix = '/api/v1',
) {
  return api(sb)('POST', `${prefix}/payment-sessions/${id}/captures`, { auth: sb.apiKey, body })
}

export async function getCapture(sb: Sandbox, id: string, captureId: string) {
  const res = await api(sb)('GET', `/api/v1/payment-sessions/${id}/captures/${captureId}`, {
    auth: sb.apiKey,
  })
  if (res.status !== 200)
    throw new Error(`get capture failed: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json as Record<string, any>
}

/** Asserts a JSON error with this status and code, and nothing else in the body (never data). */
export function expectError(res: ApiResponse, status: number, code?: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(Object.keys(res.json)).toEqual(['error'])
  expect(Object.keys(res.json.error).sort()).toEqual(['code', 'message'])
  expect(typeof res.json.error.message).toBe('string')
  expect(res.json.error.message.length).toBeGreaterThan(0)
  if (code) expect(res.json.error.code).toBe(code)
}

export function publicClient(sb: Sandbox): PublicClient {
  return createPublicClient({ transport: http(sb.rpcUrl), cacheTime: 0 })
}

export function balances(sb: Sandbox) {
  const client = publicClient(sb)
  const abi = parseAbi(['function balanceOf(address) view returns (uint256)'])
  return (token: Address, owner: Address) =>
    client.readContract({ address: token, abi, functionName: 'balanceOf', args: [owner] })
}

/** Balances (in base units) of several owners for one token, read at once. */
export async function snapshot<K extends string>(
  sb: Sandbox,
  token: Address,
  owners: Record<K, Address>,
): Promise<Record<K, bigint>> {
  const read = balances(sb)
  const entries = await Promise.all(
    (Object.entries(owners) as [K, Address][]).map(async ([k, a]) => [k, await read(token, a)]),
  )
  return Object.fromEntries(entries) as Record<K, bigint>
}

/** "10.50" -> 10500000n (6 decimals, the LOCAL tokens). */
export const units = (amount: string) => {
  const [w, f = ''] = amount.split('.')
  return BigInt(w + f.padEnd(6, '0'))
}
