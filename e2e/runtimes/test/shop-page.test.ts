import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Sandbox, startRewritingProxy, startSandbox } from '@paysession/sandbox'
import { isPaySessionError } from '@paysession/server'
import { toNodeListener } from '@paysession/server/node'
import { createMemoryRelayStoreForTestsOnly, type RelayStore } from '@paysession/server/relay'
import { type DefaultTreeAdapterMap, parse } from 'parse5'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createShop } from '../../../examples/shop/shop.js'

// The page every recipe serves (examples/shop/shop.js), read as a browser reads it (parse5, the
// HTML standard's parser): the script pinned by its hash, every attribute what it was given
// whatever the Host header or the service's answer holds, the relay at the configured origin,
// and no cache keeping the session token.
type Element = DefaultTreeAdapterMap['element']

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
}, 120_000)
afterAll(() => sb?.stop())

// The page never reaches the relay: any store that passes the relay's options check.
const store: RelayStore = createMemoryRelayStoreForTestsOnly()
const SCRIPT =
  'https://cdn.example.com/@paysession/checkout@0.1.0/dist/cdn/0.1.0/paysession-checkout.full.js'
const INTEGRITY = 'sha384-fGw5PYgG0D7UdyJjapdbxGx2ianhpKEy42hk8Kkx3muDsIazPgIpCaQLxXCkC0Rh'
const env = (overrides: Record<string, string | undefined> = {}) => ({
  PAYSESSION_API_URL: sb.apiUrl,
  PAYSESSION_API_KEY: sb.apiKey,
  PAYSESSION_WEBHOOK_SECRET: 'whsec_page',
  PAYSESSION_CHECKOUT_SCRIPT: SCRIPT,
  PAYSESSION_CHECKOUT_INTEGRITY: INTEGRITY,
  RELAYER_KEY: sb.relayer.privateKey,
  SHOP_ORIGIN: 'https://shop.example.com',
  ...overrides,
})

function elements(node: { childNodes?: unknown[] }, name: string, found: Element[] = []) {
  for (const child of (node.childNodes ?? []) as Element[]) {
    if (child.tagName === name) found.push(child)
    elements(child, name, found)
  }
  return found
}

/** Each element's attributes as the browser sees them. */
function attributesOf(html: string, name: string) {
  return elements(parse(html), name).map((element) =>
    Object.fromEntries(element.attrs.map((a) => [a.name, a.value])),
  )
}

/** GET / through a real node:http server (the Node and Express recipes), with this Host. */
async function getWithHost(handler: (request: Request) => Promise<Response>, host: string) {
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    return await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          { port, host: '127.0.0.1', path: '/', headers: { host } },
          (res) => {
            let body = ''
            res.on('data', (c) => {
              body += c
            })
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
          },
        )
        req.on('error', reject)
        req.end()
      },
    )
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('the checkout page', () => {
  test('an attacker-controlled Host injects nothing; the relay is at the configured origin', async () => {
    const shop = createShop(env(), { relayStore: store })
    const page = await getWithHost(shop.checkout, 'evil.example"onmouseover="alert(1)')
    expect(page.status, page.body).toBe(200)
    // No cache, shared or the browser's, keeps the session token.
    expect(page.headers['cache-control']).toBe('no-store')
    const [checkout, ...others] = attributesOf(page.body, 'paysession-checkout')
    expect(others).toEqual([])
    expect(checkout).toEqual({
      'session-id': expect.stringMatching(/^ps_/),
      'session-token': expect.stringMatching(/^pst_/),
      'api-base': sb.apiUrl,
      'relay-url': 'https://shop.example.com/relay',
      'x402-url': `https://shop.example.com/?session=${checkout!['session-id']}`,
    })
    // The session's x402 URL for software, at the configured origin too.
    expect(page.headers['link']).toBe(`<${checkout!['x402-url']}>; rel="payment"; title="x402"`)
    expect(page.body).not.toContain('evil.example')
  })

  test('the script is pinned by its hash and loaded without credentials', async () => {
    const page = await createShop(env(), { relayStore: store }).checkout(
      new Request('http://127.0.0.1/'),
    )
    expect(attributesOf(await page.text(), 'script')).toEqual([
      { type: 'module', crossorigin: 'anonymous', src: SCRIPT, integrity: INTEGRITY },
    ])
  })

  test("every attribute holds exactly what it was given, even an odd service's quotes", async () => {
    // A service (or a proxy before it) answering ids with quotes and angle brackets.
    const odd = await startRewritingProxy(sb.apiUrl, (body, method) =>
      method === 'POST' && typeof body.paymentSessionId === 'string'
        ? {
            ...body,
            paymentSessionId: `${body.paymentSessionId}" onclick="alert(1)`,
            paymentSessionToken: `${body.paymentSessionToken}'><script>alert(2)</script>`,
          }
        : undefined,
    )
    try {
      const page = await createShop(env({ PAYSESSION_API_URL: odd.url })).checkout(
        new Request('http://127.0.0.1/'),
      )
      const html = await page.text()
      const [checkout] = attributesOf(html, 'paysession-checkout')
      expect(Object.keys(checkout!)).toEqual(['session-id', 'session-token', 'api-base'])
      expect(checkout!['session-id']).toMatch(/^ps_\w+" onclick="alert\(1\)$/)
      expect(checkout!['session-token']).toMatch(/^pst_\w+'><script>alert\(2\)<\/script>$/)
      expect(attributesOf(html, 'script')).toHaveLength(1)
    } finally {
      await odd.close()
    }
  })

  test('a page without its hash, or a relay at an insecure or unset origin, does not start', () => {
    const refusals: [Record<string, string | undefined>, RegExp][] = [
      [{ PAYSESSION_CHECKOUT_INTEGRITY: undefined }, /PAYSESSION_CHECKOUT_INTEGRITY/],
      [{ PAYSESSION_CHECKOUT_INTEGRITY: 'sha384-x" onload="y' }, /PAYSESSION_CHECKOUT_INTEGRITY/],
      [{ SHOP_ORIGIN: undefined }, /Set SHOP_ORIGIN/],
      [{ SHOP_ORIGIN: 'http://shop.example.com' }, /SHOP_ORIGIN must be https/],
    ]
    for (const [overrides, message] of refusals) {
      let thrown: unknown
      try {
        createShop(env(overrides), { relayStore: store })
      } catch (error) {
        thrown = error
      }
      expect(isPaySessionError(thrown, 'INVALID_CONFIG'), String(thrown)).toBe(true)
      expect(String(thrown)).toMatch(message)
    }
    // http only on this machine (the sandbox, the runtime suite).
    expect(() =>
      createShop(env({ SHOP_ORIGIN: 'http://127.0.0.1:8787' }), { relayStore: store }),
    ).not.toThrow()
  })
})
