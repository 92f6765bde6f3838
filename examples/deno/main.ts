import { createShop } from '@paysession/example-shop'
import { setClientAddress } from '@paysession/server'
// Deno runs the Node adapter's file store through its node:fs.
import { createFileRelayStore } from '@paysession/server/node'

const shop = createShop(Deno.env.toObject(), {
  relayStore: createFileRelayStore(Deno.env.get('RELAY_STORE_FILE') ?? 'relay.json'),
})
const routes: Record<string, (request: Request) => Promise<Response>> = {
  'GET /': shop.checkout,
  // A session's x402 URL takes its payment by POST too.
  'POST /': shop.checkout,
  'POST /webhooks/paysession': shop.webhook,
  'POST /relay': shop.relay,
}

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8787) }, (request, info) => {
  // The caller's address, for the relay's per-IP limit.
  setClientAddress(request, (info.remoteAddr as Deno.NetAddr).hostname)
  const route = routes[`${request.method} ${new URL(request.url).pathname}`]
  return route ? route(request) : new Response(null, { status: 404 })
})
