import type { PaySessionClient } from '@paysession/server'
import type { Product } from '../catalog/products.js'
import type { Order, OrderStore } from './orders.js'

/**
 * The shop's "Buy": creates the payment session with the merchant's API key and records the
 * order. The request id is the cart's id and the product's, so submitting the same form twice
 * (a double click, a reload after a network error) replays the same session.
 */
export async function placeOrder(
  deps: { client: PaySessionClient; orders: OrderStore },
  order: { product: Product; cart: string; integration: Order['integration'] },
): Promise<Order> {
  const { product, cart } = order
  const requestId = `${cart}:${product.id}`
  const session = await deps.client.createSession({
    amount: product.amount,
    currency: product.currency,
    requestId,
  })
  const known = deps.orders.get(session.paymentSessionId)
  if (known) return known
  const created: Order = {
    paymentSessionId: session.paymentSessionId,
    requestId: session.requestId ?? requestId,
    productId: product.id,
    amount: session.amount ?? product.amount,
    currency: session.currency ?? product.currency,
    integration: order.integration,
    sessionToken: session.paymentSessionToken,
    sessionTokenExpiresAt: session.paymentSessionTokenExpiresAt,
    createdAt: session.createdAt ?? new Date().toISOString(),
  }
  deps.orders.put(created)
  return created
}
