import { confirmStatus, createPaySessionClient, createWebhookHandler } from '@paysession/server'
import { createRelayHandler } from '@paysession/server/relay'

/**
 * The example merchant, the same story as the demo, as fetch-style handlers
 * (`(Request) => Promise<Response>`) that every runtime in examples/ mounts:
 *
 * - `checkout`: creates a payment session and answers the checkout page (one script tag);
 * - `webhook`: verifies a signed status update, confirms the status with the service, and
 *   captures the whole amount once the session is FUNDED;
 * - `relay`: submits a customer's gasless authorization (EIP-3009), or refuses it.
 *
 * @param {Record<string, string | undefined>} env where each runtime keeps its configuration
 * @param {{
 *   relayStore?: import('@paysession/server/relay').RelayStore
 *   trustProxy?: import('@paysession/server').TrustProxy
 * }} parts the runtime's durable storage for what the relay sent (a file on Node, a KV namespace
 *   on Workers; without it there is no relay), and who may say the caller's address when the
 *   runtime fixes it (Cloudflare on Workers)
 */
export function createShop(env, { relayStore, trustProxy } = {}) {
  const paysession = createPaySessionClient({
    apiBase: env.PAYSESSION_API_URL,
    apiKey: env.PAYSESSION_API_KEY,
  })

  /** @param {Request} request */
  async function checkout(request) {
    const session = await paysession.createSession({ amount: '10.00', currency: 'USD' })
    // A real shop stores the session id and token with its order here.
    const page = `<!doctype html>
<title>Checkout</title>
<script type="module" src="${env.PAYSESSION_CHECKOUT_SCRIPT}"></script>
<paysession-checkout
  session-id="${session.paymentSessionId}"
  session-token="${session.paymentSessionToken}"
  api-base="${env.PAYSESSION_API_URL}"
  relay-url="${new URL('/relay', request.url)}"
></paysession-checkout>`
    return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } })
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
        // e.g. {"BASE":{"chainId":8453,"rpcUrl":"https://…","tokens":{"USDC":"0x8335…2913"}}}
        networks: JSON.parse(env.PAYSESSION_RELAY_NETWORKS ?? '{}'),
        store: relayStore,
        // Whose word the per-IP rate limit takes for the caller's address. Unset: the peer's
        // (toNodeListener, or setClientAddress in the runtime's file). Behind one load balancer
        // or a platform's proxy (Vercel, Fly, Render, nginx): TRUST_PROXY=1; behind Cloudflare:
        // cloudflare; or your proxies' CIDRs, comma-separated.
        trustProxy: trustProxy ?? env.TRUST_PROXY,
      })
    : () => Promise.resolve(new Response(null, { status: 404 }))

  return { checkout, webhook, relay }
}
