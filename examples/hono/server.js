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

// The caller's address, for the relay's per-IP limit, on every route that can spend the
// relayer's gas: the relay, and the checkout route, which is also a session's x402 URL (on Bun,
// Deno or Workers: their own).
const withAddress = (handle) => (c) => {
  setClientAddress(c.req.raw, getConnInfo(c).remote.address)
  return handle(c.req.raw)
}

// c.req.raw is the untouched Request: its body is still the raw bytes the signature covers.
app.on(['GET', 'POST'], '/', withAddress(shop.checkout))
app.post('/webhooks/paysession', (c) => shop.webhook(c.req.raw))
app.post('/relay', withAddress(shop.relay))

// On Bun, Deno or Workers: `export default app` instead of serve().
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8787) })
