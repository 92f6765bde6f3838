import { createShop } from '@paysession/example-shop'

// Runs on the edge runtime as well as on Node: the package needs only fetch and Web Crypto. The
// edge has no file system, so this route makes a shop without the relay's file store.
export const runtime = 'edge'

let shop: ReturnType<typeof createShop> | undefined

// Route handlers get the untouched Request: the body is still the raw bytes the signature covers.
export function POST(request: Request) {
  shop ??= createShop(process.env)
  return shop.webhook(request)
}
