import { isTokenRefused } from '@paysession/protocol'
import type { PaySessionClient } from '../client/createPaySessionClient.js'
import { isPaidStatus, type PaymentSession, type SessionStatus } from '../client/types.js'
import type { PaySessionError } from '../errors/index.js'
import type { PaymentStatusUpdateEvent } from './types.js'

export type ConfirmStatusOptions = {
  /**
   * The `paymentSessionToken` stored when the session was created. Section 5 of the
   * spec lists only this credential for reading a session, so pass it whenever you have it.
   */
  sessionToken?: string | undefined
}

/** The service answered: act on `status` / `paid`. */
export type ConfirmedStatus = {
  confirmed: true
  /** The session as the service reports it now. */
  session: PaymentSession
  /** The session's current status: the truth to act on. */
  status: SessionStatus
  /** True when the current status is the one the event announced. */
  matches: boolean
  /** True when the customer has paid (FUNDED, CAPTURING or SUCCEEDED). */
  paid: boolean
  /** Which credential read the session. */
  credential: 'sessionToken' | 'apiKey'
}

/**
 * No credential may read the session any more: the session token expired (or was not
 * given) and the service does not let the API key read sessions. Nothing is known about
 * the session; do not ship on the event alone. Captures (API key) still work.
 */
export type UnconfirmedStatus = {
  confirmed: false
  /**
   * `SESSION_TOKEN_EXPIRED`: the token was refused (expired or revoked).
   * `NO_SESSION_TOKEN`: no token was given and the API key was refused.
   */
  reason: 'SESSION_TOKEN_EXPIRED' | 'NO_SESSION_TOKEN'
  session: undefined
  status: undefined
  matches: false
  paid: false
  /** The service's refusals, token first. */
  errors: PaySessionError[]
}

export type ConfirmStatusResult = ConfirmedStatus | UnconfirmedStatus

/** Answers that mean "this credential may not read this session", as opposed to an outage. */
const refused = isTokenRefused

/**
 * Reads the session named by a webhook event back from the service, so the
 * application acts on the service's answer rather than on the webhook body. The
 * spec shows no signing of webhooks by the real service, so anyone who knows the
 * URL could post one: call this before shipping goods.
 *
 * It reads with the session token when given (the spec's credential for this call),
 * and with the API key only when there is no token or the token is refused (some
 * services, the sandbox's default profile among them, allow it). When neither may
 * read the session it resolves `{ confirmed: false, reason }` instead of throwing;
 * outages and unknown sessions still throw.
 *
 * A status may have moved on since the event (FUNDED, then CAPTURING once you
 * captured), so decide on `paid` or `status`, not only on `matches`.
 *
 * @example
 * onEvent: async (event) => {
 *   const order = await orders.bySession(event.paymentSessionId)
 *   const result = await confirmStatus(client, event, { sessionToken: order.sessionToken })
 *   if (result.paid) await ship(order)
 *   else if (!result.confirmed) await flagForReview(order, result.reason)
 * }
 */
export async function confirmStatus(
  client: Pick<PaySessionClient, 'getSession'>,
  event: Pick<PaymentStatusUpdateEvent, 'paymentSessionId' | 'status'>,
  options: ConfirmStatusOptions = {},
): Promise<ConfirmStatusResult> {
  const errors: PaySessionError[] = []
  const confirmed = (
    session: PaymentSession,
    credential: ConfirmedStatus['credential'],
  ): ConfirmedStatus => ({
    confirmed: true,
    session,
    status: session.status,
    matches: session.status === event.status,
    paid: isPaidStatus(session.status),
    credential,
  })
  if (options.sessionToken) {
    try {
      const session = await client.getSession(event.paymentSessionId, {
        sessionToken: options.sessionToken,
      })
      return confirmed(session, 'sessionToken')
    } catch (error) {
      if (!refused(error)) throw error
      errors.push(error)
    }
  }
  try {
    return confirmed(await client.getSession(event.paymentSessionId), 'apiKey')
  } catch (error) {
    if (!refused(error)) throw error
    errors.push(error)
  }
  return {
    confirmed: false,
    reason: options.sessionToken ? 'SESSION_TOKEN_EXPIRED' : 'NO_SESSION_TOKEN',
    session: undefined,
    status: undefined,
    matches: false,
    paid: false,
    errors,
  }
}
