import { PaySessionError } from '../errors/PaySessionError.js'
import {
  type Capture,
  type CaptureStatus,
  type CreatedPaymentSession,
  captureStatuses,
  type PaymentSession,
  type SessionStatus,
  sessionStatuses,
} from './types.js'

type Json = Record<string, unknown>

function invalid(details: string): PaySessionError {
  return new PaySessionError('INVALID_RESPONSE', { details })
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function object(value: unknown, what: string): Json {
  if (!isObject(value)) throw invalid(`${what} is not a JSON object.`)
  return value
}

function requiredString(source: Json, key: string, what: string): string {
  const value = source[key]
  if (typeof value !== 'string' || value === '') throw invalid(`${what}.${key} is missing.`)
  return value
}

function optionalString(source: Json, key: string, what: string): string | undefined {
  const value = source[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw invalid(`${what}.${key} is not a string.`)
  return value
}

function nullableString(source: Json, key: string, what: string): string | null | undefined {
  if (source[key] === null) return null
  return optionalString(source, key, what)
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, what: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
  throw invalid(`${what} is ${JSON.stringify(value)}, not one of ${allowed.join(', ')}.`)
}

/** Copies the optional fields that are present, so absent ones stay absent. */
function assignDefined<T extends object>(target: T, values: Partial<T>): T {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Json)[key] = value
  }
  return target
}

export function parseSessionStatus(value: unknown, what = 'status'): SessionStatus {
  return oneOf(sessionStatuses, value, what)
}

export function parseCapture(body: unknown, what = 'capture'): Capture {
  const source = object(body, what)
  const id = source['captureId'] ?? source['paymentCaptureId']
  if (typeof id !== 'string' || id === '') throw invalid(`${what} has no captureId.`)
  const finalCapture = source['finalCapture'] ?? source['isFinalCapture']
  if (finalCapture !== undefined && typeof finalCapture !== 'boolean') {
    throw invalid(`${what}.finalCapture is not a boolean.`)
  }
  const capture: Capture = {
    captureId: id,
    status: oneOf<CaptureStatus>(captureStatuses, source['status'], `${what}.status`),
    captureAmount: requiredString(source, 'captureAmount', what),
    refundAmount: optionalString(source, 'refundAmount', what) ?? '0.00',
    captureTransferTransactionHash:
      nullableString(source, 'captureTransferTransactionHash', what) ?? null,
    refundTransferTransactionHash:
      nullableString(source, 'refundTransferTransactionHash', what) ?? null,
  }
  return assignDefined(capture, {
    finalCapture: finalCapture as boolean | undefined,
    createdAt: optionalString(source, 'createdAt', what),
  })
}

function sessionFields(source: Json, what: string): Omit<PaymentSession, 'status'> {
  const captures = source['captures']
  if (captures !== undefined && !Array.isArray(captures)) {
    throw invalid(`${what}.captures is not an array.`)
  }
  const acceptedTokens = source['acceptedTokens']
  const chainId = source['chainId']
  return assignDefined<Omit<PaymentSession, 'status'>>(
    { paymentSessionId: requiredString(source, 'paymentSessionId', what) },
    {
      amount: optionalString(source, 'amount', what),
      currency: optionalString(source, 'currency', what),
      network: optionalString(source, 'network', what),
      tokenSymbol: optionalString(source, 'tokenSymbol', what),
      oneTimeWalletAddress: optionalString(source, 'oneTimeWalletAddress', what),
      userAddress: nullableString(source, 'userAddress', what),
      fundingTransactionHash: nullableString(source, 'fundingTransactionHash', what),
      userSubmittedTransactionHash: nullableString(source, 'userSubmittedTransactionHash', what),
      capturableAmount: optionalString(source, 'capturableAmount', what),
      capturedAmount: optionalString(source, 'capturedAmount', what),
      captures: captures?.map((capture, i) => parseCapture(capture, `${what}.captures[${i}]`)),
      createdAt: optionalString(source, 'createdAt', what),
      // Extensions are taken only when well-formed: a client must not depend on them.
      acceptedTokens:
        Array.isArray(acceptedTokens) && acceptedTokens.every((t) => typeof t === 'string')
          ? (acceptedTokens as string[])
          : undefined,
      receivedAmount: optionalString(source, 'receivedAmount', what),
      expiresAt: optionalString(source, 'expiresAt', what),
      chainId: typeof chainId === 'number' ? chainId : undefined,
    },
  )
}

export function parseSession(body: unknown, what = 'session'): PaymentSession {
  const source = object(body, what)
  return {
    ...sessionFields(source, what),
    status: parseSessionStatus(source['status'], `${what}.status`),
  }
}

export function parseCreatedSession(
  body: unknown,
  requestId: string | null,
): CreatedPaymentSession {
  const what = 'created session'
  const source = object(body, what)
  const created: CreatedPaymentSession = {
    ...sessionFields(source, what),
    paymentSessionToken: requiredString(source, 'paymentSessionToken', what),
    requestId,
  }
  return assignDefined(created, {
    status:
      source['status'] === undefined
        ? undefined
        : parseSessionStatus(source['status'], `${what}.status`),
    paymentSessionTokenExpiresAt: optionalString(source, 'paymentSessionTokenExpiresAt', what),
  })
}

/** The list shape is a sandbox extension: accept a bare array or one wrapped in an object. */
export function parseSessionList(body: unknown): PaymentSession[] {
  let list: unknown = body
  if (isObject(body)) {
    list = ['sessions', 'paymentSessions', 'data', 'items']
      .map((key) => body[key])
      .find((value) => Array.isArray(value))
  }
  if (!Array.isArray(list)) throw invalid('session list is not an array.')
  return list.map((session, i) => parseSession(session, `sessions[${i}]`))
}
