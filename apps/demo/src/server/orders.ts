import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

/** What the merchant keeps about one checkout: the session, and the token only its customer sees. */
export type Order = {
  paymentSessionId: string
  requestId: string
  productId: string
  amount: string
  currency: string
  integration: 'script' | 'spa'
  sessionToken: string
  sessionTokenExpiresAt: string | undefined
  createdAt: string
  /**
   * The captures the console made, recorded before each request (its idempotency key) and
   * completed with the service's id: a lean service's session answer does not list them.
   */
  captures?: { requestId: string; amount: string; final: boolean; captureId?: string }[]
}

export type OrderStore = {
  get(paymentSessionId: string): Order | undefined
  put(order: Order): void
  /** The shop's own order list, newest first: the spec has no way to list sessions. */
  list(limit?: number): Order[]
}

/**
 * Orders by session id. With a file they survive a restart (the sandbox keeps its
 * sessions too), so a second `npm run demo` still knows every order's product.
 */
export function createOrderStore(file?: string): OrderStore {
  const orders = new Map<string, Order>()
  if (file && existsSync(file)) {
    try {
      for (const order of JSON.parse(readFileSync(file, 'utf8')) as Order[]) {
        orders.set(order.paymentSessionId, order)
      }
    } catch {
      // A damaged file only loses the demo's order notes; the sessions live in the sandbox.
    }
  }
  return {
    get: (id) => orders.get(id),
    list: (limit = 25) =>
      [...orders.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit),
    put(order) {
      orders.set(order.paymentSessionId, order)
      if (!file) return
      writeFileSync(`${file}.tmp`, JSON.stringify([...orders.values()], null, 2))
      renameSync(`${file}.tmp`, file)
    },
  }
}
