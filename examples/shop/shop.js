import { confirmStatus, createPaySessionClient, createWebhookHandler } from '@paysession/server'
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
 * @param {{ relayStore?: import('@paysession/server/relay').RelayStore }} parts the runtime's
 *   durable storage for what the relay sent (a file on Node, a KV namespace on Workers); without
 *   it there is no relay
 */
export function createShop(env, { relayStore } = {}) {
  const paysession = createPaySessionClient({
    apiBase: env.PAYSESSION_API_URL,
    apiKey: env.PAYSESSION_API_KEY,
  })

  // e.g. {"BASE":{"chainId":8453,"rpcUrl":"https://…","tokens":{"USDC":"0x8335…2913"}}}
  const networks = JSON.parse(env.PAYSESSION_RELAY_NETWORKS ?? '{}')
  const x402 =
    relayStore &&
    createX402Handler({
      client: paysession,
      ...(env.X402_FACILITATOR_URL
        ? { facilitator: env.X402_FACILITATOR_URL }
        : { relayer: env.RELAYER_KEY }),
      networks,
      store: relayStore,
    })

  /** @param {Request} request */
  async function checkout(request) {
    if (x402 && new URL(request.url).searchParams.has('session')) return x402(request)
    const session = await paysession.createSession({ amount: '10.00', currency: 'USD' })
    const x402Url = x402 && new URL('/', request.url)
    x402Url?.searchParams.set('session', session.paymentSessionId)
    // A real shop stores the session id and token with its order here.
    const page = `<!doctype html>
<title>Checkout</title>
<script type="module" src="${env.PAYSESSION_CHECKOUT_SCRIPT}"></script>
<paysession-checkout
  session-id="${session.paymentSessionId}"
  session-token="${session.paymentSessionToken}"
  api-base="${env.PAYSESSION_API_URL}"
  relay-url="${new URL('/relay', request.url)}"${x402Url ? `\n  x402-url="${x402Url}"` : ''}
></paysession-checkout>`
    return new Response(page, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
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
      })
    : () => Promise.resolve(new Response(null, { status: 404 }))

  return { checkout, webhook, relay }
}
