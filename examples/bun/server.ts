import { createShop } from '@paysession/example-shop'

const shop = createShop(Bun.env)

Bun.serve({
  port: Number(Bun.env.PORT ?? 8787),
  routes: {
    '/': { GET: shop.checkout },
    '/webhooks/paysession': { POST: shop.webhook },
    '/relay': { POST: shop.relay },
  },
  fetch: () => new Response(null, { status: 404 }),
})
