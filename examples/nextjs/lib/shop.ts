import { createShop } from '@paysession/example-shop'
import { createFileRelayStore } from '@paysession/server/node'

let made: ReturnType<typeof createShop> | undefined

// Made on the first request: `next build` loads route modules without the runtime's env. Route
// handlers get no peer address: on Vercel, or behind any one proxy, set TRUST_PROXY=1 so the
// relay's per-IP limit reads the address the proxy appends to X-Forwarded-For.
export const shop = () =>
  (made ??= createShop(process.env, {
    relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
  }))
