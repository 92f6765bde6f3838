import { createShop } from '@paysession/example-shop'
import type { RelayStore } from '@paysession/server/relay'

type KV = {
  get(key: string): Promise<string | null>
  put(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}
type Env = Record<string, string | undefined> & { RELAY: KV }

// What the relay sent, in a KV namespace (for several relays at once, a Durable Object or D1).
const kvRelayStore = (kv: KV): RelayStore => ({
  get: async (id) => JSON.parse((await kv.get(id)) ?? 'null') ?? undefined,
  set: (id, record) => kv.put(id, JSON.stringify(record)),
  delete: (id) => kv.delete(id),
})

// Workers hand configuration to each request (`env`), so the shop is made on the first one.
let shop: ReturnType<typeof createShop> | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Cloudflare's edge sets CF-Connecting-IP on every request a Worker gets.
    shop ??= createShop(env, { relayStore: kvRelayStore(env.RELAY), trustProxy: 'cloudflare' })
    const { pathname } = new URL(request.url)
    if (request.method === 'GET' && pathname === '/') return shop.checkout(request)
    if (request.method === 'POST' && pathname === '/webhooks/paysession')
      return shop.webhook(request)
    if (request.method === 'POST' && pathname === '/relay') return shop.relay(request)
    return Promise.resolve(new Response(null, { status: 404 }))
  },
}
