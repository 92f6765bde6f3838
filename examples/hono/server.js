import { serve } from '@hono/node-server'
import { createShop } from '@paysession/example-shop'
import { createFileRelayStore } from '@paysession/server/node'
import { Hono } from 'hono'

const shop = createShop(process.env, {
  relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
})
const app = new Hono()

// c.req.raw is the untouched Request: its body is still the raw bytes the signature covers.
app.get('/', (c) => shop.checkout(c.req.raw))
app.post('/webhooks/paysession', (c) => shop.webhook(c.req.raw))
app.post('/relay', (c) => shop.relay(c.req.raw))

// On Bun, Deno or Workers: `export default app` instead of serve().
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8787) })
