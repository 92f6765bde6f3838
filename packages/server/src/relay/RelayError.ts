import { type RelayRejectionCode, relayRejections } from './types.js'

const messages: Record<RelayRejectionCode, string> = {
  METHOD_NOT_ALLOWED: 'Use POST.',
  INVALID_REQUEST: 'The request is not a valid authorization for a payment session.',
  SESSION_NOT_FOUND: 'This payment session does not exist.',
  SESSION_NOT_PAYABLE: 'This payment session can no longer be paid.',
  UNSUPPORTED_TOKEN: 'This token cannot be paid without network fees here.',
  WRONG_RECIPIENT: 'The authorization does not pay this session’s one-time wallet.',
  WRONG_AMOUNT: 'The authorization is not for the amount this session still owes.',
  AUTHORIZATION_NOT_YET_VALID: 'The authorization is not valid yet.',
  AUTHORIZATION_EXPIRED: 'The authorization has expired or expires too soon. Please sign again.',
  AUTHORIZATION_TOO_LONG: 'The authorization is valid for too long.',
  INVALID_SIGNATURE: 'The signature does not match the authorization.',
  INSUFFICIENT_BALANCE: 'The paying account does not hold enough of this token.',
  AUTHORIZATION_USED: 'This authorization was already used or canceled.',
  ALREADY_RELAYED: 'A payment for this session was already submitted.',
  RELAY_UNAVAILABLE: 'The payment could not be submitted right now. Please try again in a moment.',
}

/** A refused relay request: a stable `code`, its HTTP `status` and a sentence a customer can act on. */
export class RelayError extends Error {
  override name = 'RelayError'
  readonly code: RelayRejectionCode
  readonly status: number
  readonly details: string | undefined

  constructor(code: RelayRejectionCode, options: { details?: string; cause?: unknown } = {}) {
    super(messages[code], { cause: options.cause })
    this.code = code
    this.status = relayRejections[code]
    this.details = options.details
  }
}
