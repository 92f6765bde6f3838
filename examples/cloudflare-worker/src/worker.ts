import { createShop } from '@paysession/example-shop'
import { type DurableObjectNamespace, durableObjectRelayStore } from './relayStore.js'

export { RelayStoreObject } from './relayStore.js'

type Env = Record<string, string | undefined> & { RELAY_STORE: DurableObjectNamespace }

// Workers hand configuration to each request (`env`), so the shop is made on the first one.
// The relay's store is a Durable Object every isolate shares: one claim per session, one
// relayer nonce at a time (KV has no compare-and-set).
let shop: ReturnType<typeof createShop> | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Cloudflare's edge sets CF-Connecting-IP on every request a Worker gets.
    shop ??= createShop(env, {
      relayStore: durableObjectRelayStore(env.RELAY_STORE),
      trustProxy: 'cloudflare',
    })
    const { pathname } = new URL(request.url)
    if (request.method === 'GET' && pathname === '/') return shop.checkout(request)
    if (request.method === 'POST' && pathname === '/webhooks/paysession')
      return shop.webhook(request)
    if (request.method === 'POST' && pathname === '/relay') return shop.relay(request)
    return Promise.resolve(new Response(null, { status: 404 }))
  },
}
