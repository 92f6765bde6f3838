type Handler = (request: Request) => Promise<Response>

/** The example merchant's handlers (shop.js). */
export function createShop(env: Record<string, string | undefined>): {
  checkout: Handler
  webhook: Handler
  relay: Handler
}
