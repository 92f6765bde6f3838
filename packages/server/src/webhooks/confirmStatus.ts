import type { PaySessionClient } from '../client/createPaySessionClient.js'
import { isPaidStatus, type PaymentSession, type SessionStatus } from '../client/types.js'
import type { PaymentStatusUpdateEvent } from './types.js'

export type ConfirmStatusResult = {
  /** The session as the service reports it now. */
  session: PaymentSession
  /** The session's current status: the truth to act on. */
  status: SessionStatus
  /** True when the current status is the one the event announced. */
  matches: boolean
  /** True when the customer has paid (FUNDED, CAPTURING or SUCCEEDED). */
  paid: boolean
}

/**
 * Reads the session named by a webhook event from the service, with the API key,
 * so the application acts on the service's answer rather than on the webhook
 * body. The spec shows no signing of webhooks by the real service, so anyone
 * who knows the URL could post one: call this before shipping goods.
 *
 * A status may have moved on since the event (FUNDED, then CAPTURING once you
 * captured), so decide on `paid` or `status`, not only on `matches`.
 *
 * @example
 * onEvent: async (event) => {
 *   const { paid, session } = await confirmStatus(client, event)
 *   if (paid) await ship(session.paymentSessionId)
 * }
 */
export async function confirmStatus(
  client: Pick<PaySessionClient, 'getSession'>,
  event: Pick<PaymentStatusUpdateEvent, 'paymentSessionId' | 'status'>,
): Promise<ConfirmStatusResult> {
  const session = await client.getSession(event.paymentSessionId)
  return {
    session,
    status: session.status,
    matches: session.status === event.status,
    paid: isPaidStatus(session.status),
  }
}
