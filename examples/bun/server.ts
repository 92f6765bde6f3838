import { createShop } from '@paysession/example-shop'
import { setClientAddress } from '@paysession/server'
import { createFileRelayStore } from '@paysession/server/node'

const shop = createShop(Bun.env, {
  relayStore: createFileRelayStore(Bun.env.RELAY_STORE_FILE ?? 'relay.json'),
})

/**
 * The caller's address, for the relay's per-IP limit: on every route that can spend the
 * relayer's gas (the relay, and the checkout route, which is also a session's x402 URL).
 */
const withAddress =
  (handle: (request: Request) => Promise<Response>) => (request: Request, server: Bun.Server) => {
    setClientAddress(request, server.requestIP(request)?.address)
    return handle(request)
  }

Bun.serve({
  port: Number(Bun.env.PORT ?? 8787),
  routes: {
    '/': { GET: withAddress(shop.checkout), POST: withAddress(shop.checkout) },
    '/webhooks/paysession': { POST: shop.webhook },
    '/relay': { POST: withAddress(shop.relay) },
  },
  fetch: () => new Response(null, { status: 404 }),
})
