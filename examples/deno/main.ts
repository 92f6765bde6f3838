import { createShop } from '@paysession/example-shop'

const shop = createShop(Deno.env.toObject())
const routes: Record<string, (request: Request) => Promise<Response>> = {
  'GET /': shop.checkout,
  'POST /webhooks/paysession': shop.webhook,
  'POST /relay': shop.relay,
}

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8787) }, (request) => {
  const route = routes[`${request.method} ${new URL(request.url).pathname}`]
  return route ? route(request) : new Response(null, { status: 404 })
})
