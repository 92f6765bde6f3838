import { createServer } from 'node:http'
import { createShop } from '@paysession/example-shop'
import { createFileRelayStore, toNodeListener } from '@paysession/server/node'

const shop = createShop(process.env, {
  relayStore: createFileRelayStore(process.env.RELAY_STORE_FILE ?? 'relay.json'),
})
const routes = {
  'GET /': toNodeListener(shop.checkout),
  // The listener hands the handler the raw bytes, which the signature covers.
  'POST /webhooks/paysession': toNodeListener(shop.webhook),
  // The relay's per-IP limit counts the socket's address; behind a proxy set TRUST_PROXY.
  'POST /relay': toNodeListener(shop.relay),
}

createServer((req, res) => {
  const route = routes[`${req.method} ${new URL(req.url, 'http://x').pathname}`]
  if (route) return route(req, res)
  res.writeHead(404).end()
}).listen(Number(process.env.PORT ?? 8787))
