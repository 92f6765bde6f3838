import type { TrustProxy } from '@paysession/server'
import type { RelayStore } from '@paysession/server/relay'

type Handler = (request: Request) => Promise<Response>

/** The example merchant's handlers (shop.js). */
export function createShop(
  env: Record<string, string | undefined>,
  parts?: { relayStore?: RelayStore; trustProxy?: TrustProxy },
): {
  checkout: Handler
  webhook: Handler
  relay: Handler
}
