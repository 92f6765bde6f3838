import { serve } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { createShop } from '@paysession/example-shop'
import { setClientAddress } from '@paysession/server'
import { createFileRelayStore } from '@paysession/server/node'
import { Hono } from 'hono'

const shop = createShop(process.env, {
  relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
})
const app = new Hono()

// c.req.raw is the untouched Request: its body is still the raw bytes the signature covers.
app.get('/', (c) => shop.checkout(c.req.raw))
app.post('/webhooks/paysession', (c) => shop.webhook(c.req.raw))
app.post('/relay', (c) => {
  // The caller's address, for the relay's per-IP limit (on Bun, Deno or Workers: their own).
  setClientAddress(c.req.raw, getConnInfo(c).remote.address)
  return shop.relay(c.req.raw)
})

// On Bun, Deno or Workers: `export default app` instead of serve().
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8787) })
