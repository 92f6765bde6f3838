import { createShop } from '@paysession/example-shop'
import { setClientAddress } from '@paysession/server'
import { createFileRelayStore } from '@paysession/server/node'

const shop = createShop(Bun.env, {
  relayStore: createFileRelayStore(Bun.env.RELAY_STORE_FILE ?? 'relay.json'),
})

Bun.serve({
  port: Number(Bun.env.PORT ?? 8787),
  routes: {
    '/': { GET: shop.checkout },
    '/webhooks/paysession': { POST: shop.webhook },
    '/relay': {
      // The caller's address, for the relay's per-IP limit.
      POST: (request, server) => {
        setClientAddress(request, server.requestIP(request)?.address)
        return shop.relay(request)
      },
    },
  },
  fetch: () => new Response(null, { status: 404 }),
})
