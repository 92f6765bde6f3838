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
}

export type OrderStore = {
  get(paymentSessionId: string): Order | undefined
  put(order: Order): void
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
    put(order) {
      orders.set(order.paymentSessionId, order)
      persistence?.save([...orders.values()])
    },
  }
}
