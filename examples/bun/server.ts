import { createShop } from '@paysession/example-shop'
import { createFileRelayStore } from '@paysession/server/node'

const shop = createShop(Bun.env, {
  relayStore: createFileRelayStore(Bun.env.RELAY_STORE_FILE ?? 'relay.json'),
})

Bun.serve({
  port: Number(Bun.env.PORT ?? 8787),
  routes: {
    '/': { GET: shop.checkout },
    '/webhooks/paysession': { POST: shop.webhook },
    '/relay': { POST: shop.relay },
  },
  fetch: () => new Response(null, { status: 404 }),
})
