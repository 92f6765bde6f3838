import type { Sandbox } from '@paysession/sandbox'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createClientIp,
  createPaySessionClient,
  ipRateLimitKey,
  isPaySessionError,
  setClientAddress,
} from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import { createTokenBucketRateLimit, type RelayHandlerOptions } from '../src/relay.js'
import { close, listen } from './helpers.js'
import { countingProxy, type RelayKit, startRelayKit } from './relayHelpers.js'

// The per-IP limit of the relay, in a fetch-style handler (`(Request) => Promise<Response>`, no
// toNodeListener), behind the proxies merchants deploy behind. The attack it stops: anyone
// posts self-signed authorizations with made-up session ids, and each costs a signature
// recovery and a getSession with the merchant's API key.
let sb: Sandbox
let kit: RelayKit
beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit())
}, 60_000)
afterAll(() => sb?.stop())

const burst = 3
const limited = (options: Partial<RelayHandlerOptions>, apiUrl: string) =>
  kit.relayWith({
    client: createPaySessionClient({ apiBase: apiUrl, apiKey: sb.apiKey, retry: false }),
    rateLimit: createTokenBucketRateLimit({ ip: { burst, perSecond: 0 } }),
    ...options,
  })

/** A stranger's self-signed authorization for a made-up session, from `headers`. */
async function selfSigned(headers: Record<string, string>): Promise<Request> {
  const key = generatePrivateKey()
  const signed = await kit.authorize(key, privateKeyToAccount(generatePrivateKey()).address)
  const request = kit.relayRequest(`ps_${crypto.randomUUID()}`, signed)
  return new Request(request, { headers: { ...Object.fromEntries(request.headers), ...headers } })
}

describe('the per-IP limit in a fetch-style handler', () => {
  test('behind one proxy: a spoofed left-most X-Forwarded-For does not evade it', async () => {
    const api = await countingProxy(sb.apiUrl)
    try {
      const relay = limited({ trustProxy: 1 }, api.url)
      const statuses: number[] = []
      for (let i = 0; i < burst + 3; i++) {
        // The attacker writes any X-Forwarded-For; the proxy appends the address it saw.
        const spoofed = `198.51.100.${i + 1}`
        statuses.push(
          (await relay(await selfSigned({ 'x-forwarded-for': `${spoofed}, 203.0.113.7` }))).status,
        )
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429, 429])
      // Only the requests the limit let through cost a session read with the API key.
      expect(api.count).toBe(burst)
      // Another caller behind the same proxy has a limit of its own.
      expect((await relay(await selfSigned({ 'x-forwarded-for': '203.0.113.8' }))).status).toBe(400)
    } finally {
      await api.close()
    }
  })

  test('on Cloudflare: CF-Connecting-IP, whatever X-Forwarded-For says', async () => {
    const api = await countingProxy(sb.apiUrl)
    try {
      const relay = limited({ trustProxy: 'cloudflare' }, api.url)
      const statuses: number[] = []
      for (let i = 0; i < burst + 2; i++)
        statuses.push(
          (
            await relay(
              await selfSigned({
                'cf-connecting-ip': '2001:db8:7:7::1',
                'x-forwarded-for': `198.51.100.${i + 1}`,
              }),
            )
          ).status,
        )
      expect(statuses).toEqual([400, 400, 400, 429, 429])
      // An IPv6 caller is counted by its /64: another address in it does not get a new limit.
      const sameBlock = await relay(await selfSigned({ 'cf-connecting-ip': '2001:db8:7:7::2' }))
      expect(sameBlock.status).toBe(429)
      expect(api.count).toBe(burst)
    } finally {
      await api.close()
    }
  })

  test('with no address at all, callers share one limit rather than none', async () => {
    const api = await countingProxy(sb.apiUrl)
    try {
      // The default trusts no header, and a fetch-style runtime gave no peer address.
      const relay = limited({}, api.url)
      const statuses: number[] = []
      for (let i = 0; i < burst + 2; i++)
        statuses.push(
          (await relay(await selfSigned({ 'x-forwarded-for': `198.51.100.${i + 1}` }))).status,
        )
      expect(statuses).toEqual([400, 400, 400, 429, 429])
      expect(api.count).toBe(burst)
      // A runtime that knows the peer (Bun's requestIP, Deno's remoteAddr) hands it over.
      const known = await selfSigned({})
      setClientAddress(known, '192.0.2.10')
      expect((await relay(known)).status).toBe(400)
    } finally {
      await api.close()
    }
  })
})

test('through toNodeListener behind listed proxies: the right-most address not among them', async () => {
  const seen: (string | undefined)[] = []
  const clientIp = createClientIp(['127.0.0.0/8', '10.0.0.0/8'])
  const { server, url } = await listen(
    toNodeListener(async (request) => {
      seen.push(clientIp(request))
      return new Response(null, { status: 204 })
    }),
  )
  try {
    const from = (xff?: string) =>
      fetch(url, { method: 'POST', headers: xff ? { 'x-forwarded-for': xff } : {} })
    await from('198.51.100.1, 203.0.113.5, 10.0.0.2')
    await from('203.0.113.5')
    await from()
    expect(seen).toEqual(['203.0.113.5', '203.0.113.5', '127.0.0.1'])
  } finally {
    await close(server)
  }
  // A peer that is not a listed proxy is the caller, whatever it forwards.
  const direct = new Request('http://shop.test/', { headers: { 'x-forwarded-for': '10.0.0.9' } })
  setClientAddress(direct, '::ffff:192.0.2.1')
  expect(clientIp(direct)).toBe('192.0.2.1')
})

test('the readings of each setting', () => {
  const request = (headers: Record<string, string>, peer?: string) => {
    const r = new Request('http://shop.test/', { headers })
    setClientAddress(r, peer)
    return r
  }
  const xff = { 'x-forwarded-for': '1.1.1.1, 2.2.2.2 , 3.3.3.3' }
  expect(createClientIp(1)(request(xff, '10.0.0.1'))).toBe('3.3.3.3')
  expect(createClientIp(2)(request(xff))).toBe('2.2.2.2')
  expect(createClientIp('3')(request(xff))).toBe('1.1.1.1')
  // Fewer entries than proxies: the request went around them; the caller is unknown.
  expect(createClientIp(4)(request(xff))).toBeUndefined()
  expect(createClientIp(1)(request({ 'x-forwarded-for': 'not-an-ip' }))).toBeUndefined()
  expect(createClientIp(1)(request({ 'x-forwarded-for': '[2001:db8::1]:4711' }))).toBe(
    '2001:db8::1',
  )
  expect(createClientIp(1)(request({ 'x-forwarded-for': '192.0.2.1:4711' }))).toBe('192.0.2.1')
  expect(createClientIp(1)(request({ 'x-forwarded-for': '0x7f.1' }))).toBeUndefined()
  expect(createClientIp()(request(xff, '10.0.0.1'))).toBe('10.0.0.1')
  expect(createClientIp('')(request(xff))).toBeUndefined()
  expect(createClientIp('0')(request(xff, '10.0.0.1'))).toBe('10.0.0.1')
  expect(createClientIp('cloudflare')(request({ 'cf-connecting-ip': '192.0.2.1' }))).toBe(
    '192.0.2.1',
  )
  expect(createClientIp('10.0.0.0/8, 127.0.0.1')(request(xff, '127.0.0.1'))).toBe('3.3.3.3')
  expect(ipRateLimitKey('192.0.2.1')).toBe('ip:192.0.2.1')
  expect(ipRateLimitKey('2001:db8:1:2:3:4:5:6')).toBe('ip:2001:db8:1:2::/64')
  expect(ipRateLimitKey(undefined)).toBe('ip:unknown')
})

test('a setting it cannot read is INVALID_CONFIG when the relay is built', () => {
  for (const trustProxy of [17, -1, 1.5, Number.NaN, 'cloudfare', ['10.0.0.0/33'], 'yes']) {
    let thrown: unknown
    try {
      kit.relayWith({ trustProxy })
    } catch (error) {
      thrown = error
    }
    expect(isPaySessionError(thrown, 'INVALID_CONFIG'), String(trustProxy)).toBe(true)
    expect(String(thrown)).toMatch(/trustProxy must be false, "cloudflare", the number of proxies/)
  }
})
