/** Every stable error code. A code's meaning never changes; see docs/core.md for the table. */
export type PaySessionErrorCode =
  // service (HTTP)
  | 'UNAUTHORIZED'
  | 'SESSION_TOKEN_EXPIRED'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_NOT_PAYABLE'
  | 'API_UNAVAILABLE'
  | 'API_ERROR'
  | 'INVALID_RESPONSE'
  | 'TRANSACTION_DOES_NOT_FUND_SESSION'
  | 'TRANSACTION_REVERTED'
  | 'INVALID_TRANSACTION_HASH'
  // session status
  | 'SESSION_EXPIRED'
  | 'SESSION_FAILED'
  // registry and input
  | 'UNSUPPORTED_NETWORK'
  | 'UNSUPPORTED_TOKEN'
  | 'INVALID_ADDRESS'
  | 'INVALID_AMOUNT'
  // wallet and chain
  | 'WALLET_NOT_FOUND'
  | 'WALLET_NOT_CONNECTED'
  | 'USER_REJECTED'
  | 'WRONG_NETWORK'
  | 'INSUFFICIENT_BALANCE'
  | 'TRANSACTION_FAILED'
  | 'TRANSFER_MISMATCH'
  | 'WALLET_ERROR'
  | 'CHAIN_UNAVAILABLE'
  // never twice
  | 'PAYMENT_IN_PROGRESS'
  | 'ALREADY_PAID'
  // waiting
  | 'TIMEOUT'
  | 'ABORTED'

/** A sentence safe to show a customer, per code. */
export const shortMessages: Record<PaySessionErrorCode, string> = {
  UNAUTHORIZED: 'This payment link is not valid.',
  // Not "expired": the session may well be payable, or paid (a customer told otherwise may pay twice).
  SESSION_TOKEN_EXPIRED: 'This page can no longer follow the payment with the service.',
  SESSION_NOT_FOUND: 'This payment could not be found.',
  SESSION_NOT_PAYABLE: 'This payment can no longer be paid.',
  API_UNAVAILABLE: 'The payment service is unreachable. Please try again.',
  API_ERROR: 'The payment service refused the request.',
  INVALID_RESPONSE: 'The payment service sent an unexpected answer.',
  TRANSACTION_DOES_NOT_FUND_SESSION: 'This transaction does not pay this checkout.',
  TRANSACTION_REVERTED: 'The transaction failed on chain. No funds were moved.',
  INVALID_TRANSACTION_HASH: 'The transaction reference is not valid.',
  SESSION_EXPIRED: 'This payment has expired.',
  SESSION_FAILED: 'This payment could not be processed.',
  UNSUPPORTED_NETWORK: 'This payment uses a network that is not supported here.',
  UNSUPPORTED_TOKEN: 'This payment uses a token that is not supported here.',
  INVALID_ADDRESS: 'The payment address could not be verified.',
  INVALID_AMOUNT: 'The amount is not valid.',
  WALLET_NOT_FOUND: 'No wallet was found.',
  WALLET_NOT_CONNECTED: 'Connect a wallet first.',
  USER_REJECTED: 'The request was declined in your wallet.',
  WRONG_NETWORK: 'Your wallet is on the wrong network.',
  INSUFFICIENT_BALANCE: 'Your balance is too low for this payment.',
  TRANSACTION_FAILED: 'The transaction failed on chain. No funds were moved.',
  TRANSFER_MISMATCH: 'The transaction does not match this payment.',
  WALLET_ERROR: 'Your wallet reported an error.',
  CHAIN_UNAVAILABLE: 'The blockchain network could not be reached. Please try again.',
  PAYMENT_IN_PROGRESS: 'A payment for this checkout is already in progress.',
  ALREADY_PAID: 'This checkout is already paid.',
  TIMEOUT: 'This is taking longer than expected.',
  ABORTED: 'The operation was cancelled.',
}

export type PaySessionErrorParameters = {
  shortMessage?: string
  details?: string
  docsPath?: string
  status?: number
  cause?: unknown
}

/**
 * The one error class of the SDK: a stable `code`, a customer-safe `shortMessage`,
 * developer `details`, the HTTP `status` when it came from the service, and the original `cause`.
 * @example
 * if (error instanceof PaySessionError && error.code === 'USER_REJECTED') showRetry()
 */
export class PaySessionError extends Error {
  override name = 'PaySessionError'
  readonly code: PaySessionErrorCode
  readonly shortMessage: string
  readonly details: string | undefined
  readonly docsPath: string
  readonly status: number | undefined

  constructor(code: PaySessionErrorCode, parameters: PaySessionErrorParameters = {}) {
    const shortMessage = parameters.shortMessage ?? shortMessages[code]
    const message = [shortMessage, parameters.details && `Details: ${parameters.details}`]
      .filter(Boolean)
      .join('\n')
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.code = code
    this.shortMessage = shortMessage
    this.details = parameters.details
    this.docsPath = parameters.docsPath ?? `/docs/core.md#${code.toLowerCase()}`
    this.status = parameters.status
  }
}

/** Whether the value is a PaySessionError, optionally with one of the given codes. */
export function isPaySessionError(
  value: unknown,
  ...codes: PaySessionErrorCode[]
): value is PaySessionError {
  return value instanceof PaySessionError && (codes.length === 0 || codes.includes(value.code))
}
