import {
  confirmStatus,
  createPaySessionClient,
  createWebhookHandler,
  PaySessionError,
} from '@paysession/server'
import { createRelayHandler } from '@paysession/server/relay'
import { createX402Handler } from '@paysession/server/x402'

/**
 * The example merchant, the same story as the demo, as fetch-style handlers
 * (`(Request) => Promise<Response>`) that every runtime in examples/ mounts:
 *
 * - `checkout`: creates a payment session and answers the checkout page (one script tag);
 * - `webhook`: verifies a signed status update, confirms the status with the service, and
 *   captures the whole amount once the session is FUNDED;
 * - `relay`: submits a customer's gasless authorization (EIP-3009), or refuses it;
 * - the checkout route with `?session=<id>` is that session's x402 URL, where software pays it
 *   (settled by the relayer, or by the x402 facilitator at `X402_FACILITATOR_URL`).
 *
 * @param {Record<string, string | undefined>} env where each runtime keeps its configuration
 * @param {{
 *   relayStore?: import('@paysession/server/relay').RelayStore
 *   trustProxy?: import('@paysession/server').TrustProxy
 * }} parts the relay's store, shared by every instance (a file for one Node process, Postgres
 *   on serverless, a Durable Object on Workers; without it there is no relay), and who may say the caller's address when the
 *   runtime fixes it (Cloudflare on Workers)
 */
export function createShop(env, { relayStore, trustProxy } = {}) {
  const paysession = createPaySessionClient({
    apiBase: env.PAYSESSION_API_URL,
    apiKey: env.PAYSESSION_API_KEY,
  })
  // The checkout script runs with the session token: the browser runs it only if it is the
  // file whose hash this is (sri.json beside it in the build, dist/cdn/<version>/sri.json).
  const integrity = env.PAYSESSION_CHECKOUT_INTEGRITY ?? ''
  if (!/^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/.test(integrity))
    throw configError(
      'Set PAYSESSION_CHECKOUT_INTEGRITY to the sha384-… of PAYSESSION_CHECKOUT_SCRIPT in its sri.json.',
      `PAYSESSION_CHECKOUT_INTEGRITY is ${JSON.stringify(integrity)}`,
    )
  // Where the page sends gasless payments: the shop's configured origin, never the request's
  // Host header, which whoever sends the request writes.
  const relayUrl = relayStore ? new URL('/relay', shopOrigin(env.SHOP_ORIGIN)).href : undefined
  // e.g. {"BASE":{"chainId":8453,"rpcUrl":"https://…","tokens":{"USDC":"0x8335…2913"}}}
  const networks = JSON.parse(env.PAYSESSION_RELAY_NETWORKS ?? '{}')
  // Whose word the per-IP rate limit takes for the caller's address. Unset: the peer's
  // (toNodeListener, or setClientAddress in the runtime's file). Behind one load balancer
  // or a platform's proxy (Vercel, Fly, Render, nginx): TRUST_PROXY=1; behind Cloudflare:
  // cloudflare; or your proxies' CIDRs, comma-separated.
  const trust = trustProxy ?? env.TRUST_PROXY
  const x402 =
    relayStore &&
    createX402Handler({
      client: paysession,
      ...(env.X402_FACILITATOR_URL
        ? { facilitator: env.X402_FACILITATOR_URL }
        : { relayer: env.RELAYER_KEY }),
      networks,
      store: relayStore,
      trustProxy: trust,
    })

  /** @param {Request} request */
  async function checkout(request) {
    if (x402 && new URL(request.url).searchParams.has('session')) return x402(request)
    const session = await paysession.createSession({ amount: '10.00', currency: 'USD' })
    const x402Url =
      relayUrl &&
      new URL(`/?session=${encodeURIComponent(session.paymentSessionId)}`, relayUrl).href
    // A real shop stores the session id and token with its order here.
    const page = `<!doctype html>
<title>Checkout</title>
<script type="module" crossorigin="anonymous" src="${attribute(env.PAYSESSION_CHECKOUT_SCRIPT)}"
  integrity="${attribute(integrity)}"></script>
<paysession-checkout
  session-id="${attribute(session.paymentSessionId)}"
  session-token="${attribute(session.paymentSessionToken)}"
  api-base="${attribute(env.PAYSESSION_API_URL)}"${relayUrl ? `\n  relay-url="${attribute(relayUrl)}"` : ''}${x402Url ? `\n  x402-url="${attribute(x402Url)}"` : ''}
></paysession-checkout>`
    return new Response(page, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        // The page carries the session token: no cache, shared or the browser's, keeps a copy.
        'cache-control': 'no-store',
        // Where an x402 client (an agent, a script) pays this session.
        ...(x402Url ? { link: `<${x402Url}>; rel="payment"; title="x402"` } : {}),
      },
    })
  }

  const webhook = createWebhookHandler({
    secret: env.PAYSESSION_WEBHOOK_SECRET,
    async onEvent(event) {
      // An update is a hint: read the session before acting (pass the stored session token
      // as { sessionToken } where the service refuses the API key for reads).
      const { confirmed, status, session } = await confirmStatus(paysession, event)
      if (!confirmed || status !== 'FUNDED') return
      // The request id makes a redelivered update capture once.
      await paysession.createCapture(event.paymentSessionId, {
        captureAmount: session.capturableAmount ?? session.amount,
        isFinalCapture: true,
        requestId: `capture-${event.paymentSessionId}`,
      })
    },
  })

  const relay = relayStore
    ? createRelayHandler({
        client: paysession,
        relayer: env.RELAYER_KEY,
        networks,
        store: relayStore,
        trustProxy: trust,
      })
    : () => Promise.resolve(new Response(null, { status: 404 }))

  return { checkout, webhook, relay }
}

/** Text that stays inside a double-quoted HTML attribute, whatever it holds. */
function attribute(value) {
  return String(value ?? '').replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The shop's public origin: https, or http only on this machine. */
function shopOrigin(text) {
  let url
  try {
    url = new URL(text ?? '')
  } catch {
    throw configError(
      'Set SHOP_ORIGIN to the origin customers reach the shop at, e.g. https://shop.example.com.',
      `SHOP_ORIGIN is ${JSON.stringify(text)}`,
    )
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    throw configError(
      'SHOP_ORIGIN must be https (http only for localhost): the page would post payments in clear, and a page served over https could not post to it.',
      `SHOP_ORIGIN is ${text}`,
    )
  return url.origin
}

/** @param {string} shortMessage @param {string} details */
function configError(shortMessage, details) {
  return new PaySessionError('INVALID_CONFIG', { shortMessage, details })
}
