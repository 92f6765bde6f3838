import {
  type Capture,
  isPaySessionError,
  type PaymentSession,
  type PaySessionClient,
} from '@paysession/server'
import { subtractDecimals, sumDecimals } from '../catalog/money.js'
import type { Order, OrderStore } from './orders.js'

/** The session as the service reports it now, or why the shop cannot tell. */
export type SessionRead =
  | { session: PaymentSession; unavailable?: undefined }
  | { session: undefined; unavailable: string }

export type SessionReader = {
  /** Throws only SESSION_NOT_FOUND (the service does not know the id); anything else is said. */
  read(paymentSessionId: string): Promise<SessionRead>
}

export type SessionReaderOptions = {
  client: PaySessionClient
  orders: OrderStore
  /** The service's token renewal, where it has one (the sandbox's extension); else undefined. */
  renewSessionToken: (
    paymentSessionId: string,
  ) => Promise<{ token: string; expiresAt: string | undefined } | undefined>
}

export type RenewSessionToken = SessionReaderOptions['renewSessionToken']

/**
 * The sandbox's token renewal (its extension: the spec has no way to renew a session token),
 * over any fetch: the Node demo's global one, or the hosted page's in-page service.
 */
export const sandboxTokenRenewal =
  (service: { apiBase: string; apiKey: string; fetch: typeof fetch }): RenewSessionToken =>
  async (id) => {
    const response = await service.fetch(
      `${service.apiBase}/api/v1/payment-sessions/${encodeURIComponent(id)}/session-token`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
        body: '{}',
      },
    )
    if (!response.ok) return undefined
    const body = (await response.json()) as {
      paymentSessionToken?: unknown
      paymentSessionTokenExpiresAt?: unknown
    }
    if (typeof body.paymentSessionToken !== 'string') return undefined
    const expiresAt = body.paymentSessionTokenExpiresAt
    return {
      token: body.paymentSessionToken,
      expiresAt: typeof expiresAt === 'string' ? expiresAt : undefined,
    }
  }

/** "This credential may not read this session", as opposed to an outage. */
const refused = (error: unknown) =>
  isPaySessionError(error, 'SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED', 'FORBIDDEN')

/**
 * Reads sessions the way the spec allows (section 5: get session takes the session token): with
 * the order's stored token, renewed once if the service refuses it and can renew, then with the
 * API key, which some services accept (the sandbox's default profile; not its strict one). A
 * lean answer is completed from the shop's own records: the captures it made, read back one by
 * one (get capture takes the API key), and the amounts captured and left to capture.
 */
export function createSessionReader(options: SessionReaderOptions): SessionReader {
  const { client, orders } = options

  async function withToken(order: Order): Promise<PaymentSession | undefined> {
    const id = order.paymentSessionId
    try {
      return await client.getSession(id, { sessionToken: order.sessionToken })
    } catch (error) {
      if (!refused(error)) throw error
    }
    const renewed = await options.renewSessionToken(id).catch(() => undefined)
    if (!renewed) return undefined
    orders.put({ ...order, sessionToken: renewed.token, sessionTokenExpiresAt: renewed.expiresAt })
    return client.getSession(id, { sessionToken: renewed.token }).catch((error: unknown) => {
      if (refused(error)) return undefined
      throw error
    })
  }

  async function fetchSession(id: string): Promise<PaymentSession | undefined> {
    const order = orders.get(id)
    const session = order ? await withToken(order) : undefined
    if (session) return session
    return client.getSession(id).catch((error: unknown) => {
      if (refused(error)) return undefined
      throw error
    })
  }

  return {
    async read(id) {
      try {
        const session = await fetchSession(id)
        if (!session)
          return {
            session: undefined,
            unavailable:
              'The service lets none of this shop’s credentials read this session: its token expired and could not be renewed, and the API key may not read sessions.',
          }
        return { session: await completed(client, session, orders.get(id)) }
      } catch (error) {
        if (isPaySessionError(error, 'SESSION_NOT_FOUND')) throw error
        const why = isPaySessionError(error) ? `${error.shortMessage} (${error.code})` : 'no answer'
        return {
          session: undefined,
          unavailable: `The payment service could not be asked: ${why}`,
        }
      }
    },
  }
}

/**
 * The answer, plus what a lean service leaves out and the shop knows: the captures it made
 * (read back with get capture), the amount captured and the amount left to capture.
 */
async function completed(
  client: PaySessionClient,
  session: PaymentSession,
  order: Order | undefined,
): Promise<PaymentSession> {
  let captures = session.captures
  if (captures === undefined && order?.captures?.length) {
    const read = await Promise.all(
      order.captures.map(async (made): Promise<Capture | undefined> => {
        if (!made.captureId) return undefined
        const capture = await client
          .getCapture(session.paymentSessionId, made.captureId)
          .catch(() => undefined)
        // get capture does not echo the flag: the shop knows which capture it made final.
        return capture && { ...capture, finalCapture: capture.finalCapture ?? made.final }
      }),
    )
    captures = read.filter((c) => c !== undefined)
  }
  const all = captures ?? []
  const taken = sumDecimals(all.map((c) => c.captureAmount))
  const capturedAmount =
    session.capturedAmount ??
    sumDecimals(all.filter((c) => c.status === 'CAPTURED').map((c) => c.captureAmount))
  const open = session.status === 'FUNDED' && session.amount && !all.some((c) => c.finalCapture)
  const capturableAmount =
    session.capturableAmount ?? (open ? subtractDecimals(session.amount!, taken) : '0.00')
  return { ...session, ...(captures ? { captures } : {}), capturedAmount, capturableAmount }
}
