import {
  merchantError,
  parseCaptures,
  parseCreatedSession as parseCreated,
  parseSession as parseProtocolSession,
} from '@paysession/protocol'
import type { CreatedPaymentSession, PaymentSession } from './types.js'

export { parseCapture, parseSessionStatus } from '@paysession/protocol'

/** The protocol's rules, with the complete captures of `captures`. */
export function parseSession(body: unknown, what = 'session'): PaymentSession {
  const { captures, ...session } = parseProtocolSession(body, what)
  return captures ? { ...session, captures: parseCaptures(captures, `${what}.captures`) } : session
}

export function parseCreatedSession(
  body: unknown,
  requestId: string | null,
): CreatedPaymentSession {
  const { captures, ...session } = parseCreated(body)
  return {
    ...session,
    ...(captures ? { captures: parseCaptures(captures, 'created session.captures') } : {}),
    requestId,
  }
}

/** The list shape is a sandbox extension: accept a bare array or one wrapped in an object. */
export function parseSessionList(body: unknown): PaymentSession[] {
  let list: unknown = body
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const wrapped = body as Record<string, unknown>
    list = ['sessions', 'paymentSessions', 'data', 'items']
      .map((key) => wrapped[key])
      .find((value) => Array.isArray(value))
  }
  if (!Array.isArray(list))
    throw merchantError('INVALID_RESPONSE', { details: 'session list is not an array.' })
  return list.map((session, i) => parseSession(session, `sessions[${i}]`))
}
