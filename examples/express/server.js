import { createShop } from '@paysession/example-shop'
import { createFileRelayStore, toNodeListener } from '@paysession/server/node'
import express from 'express'

const shop = createShop(process.env, {
  relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
})
const app = express()

// The signature covers the raw bytes: give the webhook route express.raw() (or no body
// parser at all), never express.json(), which parses and re-serializes the body.
app.post(
  '/webhooks/paysession',
  express.raw({ type: 'application/json' }),
  toNodeListener(shop.webhook),
)
// The relay's per-IP limit counts the socket's address; behind a proxy set TRUST_PROXY.
app.post('/relay', toNodeListener(shop.relay))
app.get('/', toNodeListener(shop.checkout))
// Other routes may parse JSON as usual.
app.use(express.json())

app.listen(Number(process.env.PORT ?? 8787))
