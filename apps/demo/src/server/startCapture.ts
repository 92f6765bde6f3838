import type { CreatedCapture, PaySessionClient } from '@paysession/server'
import type { OrderStore } from './orders.js'

/**
 * The console's "Capture": asks the service for a capture of `amount` (final or not). Written
 * ahead: the order records the capture, with its idempotency key, before the request, and its
 * id after, because a lean session answer does not list the captures the shop made.
 */
export async function startCapture(
  deps: { client: PaySessionClient; orders: OrderStore },
  paymentSessionId: string,
  capture: { amount: string; final: boolean },
): Promise<CreatedCapture> {
  const { amount, final } = capture
  const requestId = crypto.randomUUID()
  const record = (captureId?: string) => {
    const order = deps.orders.get(paymentSessionId)
    if (!order) return
    const made = (order.captures ?? []).filter((c) => c.requestId !== requestId)
    const entry = { requestId, amount, final, ...(captureId ? { captureId } : {}) }
    deps.orders.put({ ...order, captures: [...made, entry] })
  }
  record()
  const created = await deps.client.createCapture(paymentSessionId, {
    captureAmount: amount,
    isFinalCapture: final,
    requestId,
  })
  record(created.captureId)
  return created
}
