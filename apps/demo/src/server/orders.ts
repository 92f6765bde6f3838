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
 * Where orders survive a restart: `orderFile` (a JSON file, Node) or the hosted demo's IndexedDB.
 * `save` receives every order after each change.
 */
export type OrderPersistence = {
  load(): Order[]
  save(orders: Order[]): void
}

/**
 * Orders by session id. With persistence they survive a restart (the sandbox keeps its
 * sessions too), so a second `npm run demo` still knows every order's product.
 */
export function createOrderStore(persistence?: OrderPersistence): OrderStore {
  const orders = new Map<string, Order>()
  for (const order of persistence?.load() ?? []) orders.set(order.paymentSessionId, order)
  return {
    get: (id) => orders.get(id),
    list: (limit = 25) =>
      [...orders.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit),
    put(order) {
      orders.set(order.paymentSessionId, order)
      persistence?.save([...orders.values()])
    },
  }
}
