import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signWebhook, startSandbox, transferWithAuthorizationTypes } from '@paysession/sandbox'
import { createPaySessionClient } from '@paysession/server'
import { createPublicClient, http, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, test } from 'vitest'
import { startPostgres } from '../../../scripts/services.mjs'
import { runtimes } from './runtimes.js'

// One story, the demo's, told by the same merchant example in each runtime: the page creates a
// session and loads the checkout with one script tag; a customer pays; the signed FUNDED update
// reaches the example, which verifies it, confirms the status with the service and captures; a
// forged update is refused; a relay request for the paid session is refused cleanly, and the
// relay's per-IP limit holds.
const SECRET = 'whsec_runtimes'
// The script-tag build's single file and its hash, as the checkout's build writes them.
const { version } = JSON.parse(
  readFileSync(new URL('../../../packages/checkout/package.json', import.meta.url), 'utf8'),
)
const CHECKOUT_SCRIPT = `https://cdn.example.com/@paysession/checkout@${version}/dist/cdn/${version}/paysession-checkout.full.js`
const CHECKOUT_INTEGRITY: string = JSON.parse(
  readFileSync(
    new URL(`../../../packages/checkout/dist/cdn/${version}/sri.json`, import.meta.url),
    'utf8',
  ),
)['paysession-checkout.full.js']

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 30_000
  let last: T | undefined
  while (Date.now() < deadline) {
    last = await read()
    if (done(last)) return last
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`)
}

// The Next.js recipe's relay store: one Postgres for the suite (each recipe uses its own tables'
// rows by session id, so they do not meet).
const postgres = startPostgres()
afterAll(async () => (await postgres).stop())

describe.concurrent('the merchant example in each runtime', () => {
  for (const runtime of runtimes)
    test(runtime.name, async () => {
      const preparing = runtime.prepare?.()
      const dir = mkdtempSync(join(tmpdir(), 'paysession-runtimes-'))
      const sandbox = await startSandbox({
        port: 0,
        chainPort: 0,
        quiet: true,
        webhookSecret: SECRET,
        webhookRetryDelay: 100,
        interval: 50,
      })
      try {
        await preparing
        const api = (path: string) =>
          fetch(`${sandbox.apiUrl}${path}`, {
            headers: { authorization: `Bearer ${sandbox.apiKey}` },
          })
        const shop = await runtime.start({
          PAYSESSION_API_URL: sandbox.apiUrl,
          PAYSESSION_API_KEY: sandbox.apiKey,
          PAYSESSION_WEBHOOK_SECRET: SECRET,
          PAYSESSION_CHECKOUT_SCRIPT: CHECKOUT_SCRIPT,
          PAYSESSION_CHECKOUT_INTEGRITY: CHECKOUT_INTEGRITY,
          RELAYER_KEY: sandbox.relayer.privateKey,
          RELAY_STORE_FILE: join(dir, 'relay.json'),
          DATABASE_URL: (await postgres).url,
          PAYSESSION_RELAY_NETWORKS: JSON.stringify({
            [sandbox.network]: {
              chainId: sandbox.chainId,
              rpcUrl: sandbox.rpcUrl,
              tokens: { USDC: sandbox.tokens.USDC.address },
            },
          }),
        })
        try {
          const webhookUrl = `${shop.url}/webhooks/paysession`
          sandbox.setWebhookUrl(webhookUrl)

          // The checkout page: a new session, one script tag pinned by its hash, kept by no
          // cache, and the relay at the configured origin whatever Host the request names.
          const page = await fetch(`${shop.url}/`, {
            headers: { 'x-forwarded-host': 'evil.example' },
          })
          const html = await page.text()
          expect(page.status, shop.output()).toBe(200)
          expect(page.headers.get('content-type')).toMatch(/^text\/html/)
          expect(page.headers.get('cache-control')).toBe('no-store')
          expect(html.match(/<script\b/g)).toHaveLength(1)
          expect(html).toContain(`src="${CHECKOUT_SCRIPT}"`)
          expect(html).toContain(`integrity="${CHECKOUT_INTEGRITY}"`)
          expect(html).toContain('crossorigin="anonymous"')
          expect(html).toContain(`relay-url="${shop.url}/relay"`)
          const id = /session-id="([^"]+)"/.exec(html)?.[1]
          const token = /session-token="([^"]+)"/.exec(html)?.[1]
          expect(id).toMatch(/^\S+$/)
          const created = await (await api(`/payment-sessions/${id}`)).json()
          expect(created).toMatchObject({
            paymentSessionId: id,
            status: 'CREATED',
            amount: '10.00',
          })
          expect(token).toMatch(/^pst_\w+$/)

          // The session's x402 URL, for software: named in a Link header and on the element.
          const x402Url = /^<([^>]+)>; rel="payment"; title="x402"$/.exec(
            page.headers.get('link') ?? '',
          )?.[1]
          expect(x402Url, shop.output()).toBeDefined()
          expect(html).toContain(`x402-url="${x402Url}"`)
          const x402 = `${shop.url}/?session=${new URL(x402Url!).searchParams.get('session')}`
          const unpaid = await fetch(x402)
          expect(unpaid.status, shop.output()).toBe(402)
          const required = JSON.parse(atob(unpaid.headers.get('payment-required')!))
          expect(required.accepts).toEqual([
            expect.objectContaining({
              scheme: 'exact',
              network: `eip155:${sandbox.chainId}`,
              asset: sandbox.tokens.USDC.address,
              amount: '10000000',
            }),
          ])
          expect(required.accepts[0].payTo.toLowerCase()).toBe(
            created.oneTimeWalletAddress.toLowerCase(),
          )

          // A forged update (signed with another secret) and an unsigned one are refused.
          const forgedBody = JSON.stringify({
            jsonrpc: '2.0',
            id: 'evt_forged',
            method: 'paysession_paymentStatusUpdate',
            params: [
              {
                merchantId: sandbox.merchantId,
                paymentSessionId: id,
                status: 'FUNDED',
                updatedAt: new Date().toISOString(),
              },
            ],
          })
          for (const signature of [signWebhook('whsec_forged', forgedBody), undefined]) {
            const forged = await fetch(webhookUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...(signature ? { 'paysession-signature': signature } : {}),
              },
              body: forgedBody,
            })
            expect(forged.status, shop.output()).toBe(401)
            expect((await forged.json()).error.data.reason).toBe(
              signature ? 'SIGNATURE_MISMATCH' : 'MISSING_SIGNATURE',
            )
          }

          // The customer pays; the example gets the signed FUNDED update, confirms it and captures.
          await sandbox.pay(id!)
          const done = await until(
            async () => (await api(`/payment-sessions/${id}`)).json(),
            (s) => s.status === 'SUCCEEDED',
            'the example to capture',
          )
          expect(done).toMatchObject({ capturedAmount: '10.00' })
          const deliveries = await until(
            async () =>
              ((await (await api('/sandbox/webhooks')).json()).data as any[])
                .filter((w) => w.paymentSessionId === id)
                .reverse(),
            (ws) => ws.length >= 4 && ws.every((w) => w.state === 'DELIVERED'),
            'every update acknowledged',
          )
          expect(deliveries.map((w) => w.body.params[0].status)).toEqual([
            'CREATED',
            'FUNDED',
            'CAPTURING',
            'SUCCEEDED',
          ])
          // Nothing was refused: every signed update verified on the first attempt.
          expect(deliveries.map((w) => w.attempts)).toEqual([1, 1, 1, 1])

          // A gasless payment with a signature that is not the payer's, for a session that is already
          // paid: refused with a code, not a 500.
          const relay = await fetch(`${shop.url}/relay`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              paymentSessionId: id,
              token: 'USDC',
              authorization: {
                from: sandbox.customers[0]!.address,
                to: created.oneTimeWalletAddress,
                value: '10000000',
                validAfter: '0',
                validBefore: String(Math.floor(Date.now() / 1000) + 600),
                nonce: `0x${'11'.repeat(32)}`,
              },
              signature: `0x${'22'.repeat(65)}`,
            }),
          })
          // (The relay's one answer for requests it refuses before any chain or service call.)
          expect(relay.status, shop.output()).toBe(400)
          expect(await relay.json()).toEqual({
            error: { code: 'RELAY_REFUSED', message: expect.any(String) },
          })

          // Paid: the x402 URL asks for nothing more.
          expect((await fetch(x402)).status, shop.output()).toBe(409)

          // A gasless payment through the recipe's relay and its store: sent once, funded.
          const next = await createPaySessionClient({
            apiBase: sandbox.apiUrl,
            apiKey: sandbox.apiKey,
          }).createSession({ amount: '10.00', currency: 'USD' })
          const chain = createPublicClient({ transport: http(sandbox.rpcUrl) })
          const payer = privateKeyToAccount(sandbox.customers[1]!.privateKey)
          const message = {
            from: payer.address,
            to: next.oneTimeWalletAddress as `0x${string}`,
            value: parseUnits('10', 6),
            validAfter: 0n,
            validBefore: (await chain.getBlock()).timestamp + 600n,
            nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
          }
          const signature = await payer.signTypedData({
            domain: {
              name: 'USD Coin',
              version: '2',
              chainId: sandbox.chainId,
              verifyingContract: sandbox.tokens.USDC.address,
            },
            types: transferWithAuthorizationTypes,
            primaryType: 'TransferWithAuthorization',
            message,
          })
          const gasless = await fetch(`${shop.url}/relay`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              paymentSessionId: next.paymentSessionId,
              token: 'USDC',
              authorization: Object.fromEntries(
                Object.entries(message).map(([k, v]) => [k, String(v)]),
              ),
              signature,
            }),
          })
          expect(gasless.status, shop.output()).toBe(200)
          const { transactionHash } = await gasless.json()
          expect((await chain.waitForTransactionReceipt({ hash: transactionHash })).status).toBe(
            'success',
          )

          // The relay's per-IP limit holds in every runtime, whatever X-Forwarded-For a caller
          // writes: 30 at once from one address, each claiming another, and the default 20 at
          // once (less the requests above) let through.
          const flood = await Promise.all(
            Array.from({ length: 30 }, (_, i) =>
              fetch(`${shop.url}/relay`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  'x-forwarded-for': `198.51.100.${i}`,
                },
                body: '{}',
              }).then((r) => r.status),
            ),
          )
          expect(
            flood.filter((status) => status === 429).length,
            shop.output(),
          ).toBeGreaterThanOrEqual(8)
          expect(flood.every((status) => status === 400 || status === 429)).toBe(true)
        } finally {
          await shop.stop()
        }
      } finally {
        await sandbox.stop()
        rmSync(dir, { recursive: true, force: true })
      }
    })
})
