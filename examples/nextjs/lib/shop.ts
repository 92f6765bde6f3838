import { createShop } from '@paysession/example-shop'
import { createFileRelayStore } from '@paysession/server/node'

let made: ReturnType<typeof createShop> | undefined

// Made on the first request: `next build` loads route modules without the runtime's env.
export const shop = () =>
  (made ??= createShop(process.env, {
    relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
  }))
