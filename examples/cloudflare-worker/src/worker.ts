import { createShop } from '@paysession/example-shop'

type Env = Record<string, string | undefined>

// Workers hand configuration to each request (`env`), so the shop is made on the first one.
let shop: ReturnType<typeof createShop> | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    shop ??= createShop(env)
    const { pathname } = new URL(request.url)
    if (request.method === 'GET' && pathname === '/') return shop.checkout(request)
    if (request.method === 'POST' && pathname === '/webhooks/paysession')
      return shop.webhook(request)
    if (request.method === 'POST' && pathname === '/relay') return shop.relay(request)
    return Promise.resolve(new Response(null, { status: 404 }))
  },
}
