import {
  invalid,
  isNullableString,
  isString,
  type Json,
  listed,
  object,
  required,
  withUsableExtensions,
} from './rules.js'
import { isSessionStatus, type SessionStatus, sessionStatuses } from './status.js'
import type { CreatedPaymentSession, PaymentSession } from './types.js'

/** A session status; anything else is INVALID_RESPONSE. */
export function parseSessionStatus(value: unknown, what = 'status'): SessionStatus {
  if (!isSessionStatus(value))
    invalid(`${what} is ${JSON.stringify(value)}, not one of ${sessionStatuses.join(', ')}.`)
  return value
}

function sessionFields(body: unknown, what: string): Omit<PaymentSession, 'status'> & Json {
  const source = withUsableExtensions(object(body, what))
  const paymentSessionId = required(source, 'paymentSessionId', what)
  for (const key of [
    'amount',
    'currency',
    'network',
    'tokenSymbol',
    'oneTimeWalletAddress',
    'capturableAmount',
    'capturedAmount',
    'createdAt',
  ])
    listed(source, key, isString, what)
  for (const key of ['userAddress', 'fundingTransactionHash', 'userSubmittedTransactionHash'])
    listed(source, key, isNullableString, what)
  listed(source, 'captures', Array.isArray, what)
  return { ...source, paymentSessionId }
}

/**
 * A session as get session answers it (section 2.1): `paymentSessionId` and `status` required,
 * listed fields type-checked, extensions used only when well-typed, unknown fields kept.
 * @example const session = parseSession(await response.json())
 */
export function parseSession(body: unknown, what = 'session'): PaymentSession {
  const session = sessionFields(body, what)
  return { ...session, status: parseSessionStatus(session.status, `${what}.status`) }
}

/**
 * What create session answers: the id and the token required, everything else as in
 * {@link parseSession}, `status` optional.
 */
export function parseCreatedSession(
  body: unknown,
  what = 'created session',
): CreatedPaymentSession {
  const session = sessionFields(body, what)
  const created: CreatedPaymentSession = {
    ...session,
    paymentSessionToken: required(session, 'paymentSessionToken', what),
  }
  if (session.status === undefined) delete created.status
  else created.status = parseSessionStatus(session.status, `${what}.status`)
  return created
}
