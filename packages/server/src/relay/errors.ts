import {
  merchantError,
  type PaySessionError,
  type PaySessionErrorParameters,
} from '@paysession/protocol'

/**
 * The HTTP status of each code the relay answers. The codes and their sentences are the
 * protocol's one table (docs/errors.md); the relay answers `{ error: { code, message } }`.
 */
export const relayStatuses = {
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RELAY_REFUSED: 400,
  RATE_LIMITED: 429,
  SESSION_NOT_PAYABLE: 409,
  UNSUPPORTED_TOKEN: 422,
  WRONG_AMOUNT: 422,
  AUTHORIZATION_NOT_YET_VALID: 422,
  AUTHORIZATION_EXPIRED: 422,
  AUTHORIZATION_TOO_LONG: 422,
  INVALID_SIGNATURE: 422,
  INSUFFICIENT_BALANCE: 422,
  GAS_LIMIT_EXCEEDED: 422,
  // The token's issuer refuses it: another token or wallet, not a retry, can pay.
  TOKEN_PAUSED: 422,
  PAYER_BLOCKED: 422,
  RECIPIENT_BLOCKED: 422,
  AUTHORIZATION_USED: 409,
  ALREADY_RELAYED: 409,
  PAYER_BUSY: 409,
  FEE_TOO_HIGH: 503,
  RELAYER_UNDERFUNDED: 503,
  RELAY_UNAVAILABLE: 503,
} as const

export type RelayErrorCode = keyof typeof relayStatuses

/** A refusal of the relay: a PaySessionError whose `status` is the relay's HTTP answer. */
export function relayError(
  code: RelayErrorCode,
  parameters: Omit<PaySessionErrorParameters, 'status'> = {},
): PaySessionError {
  return merchantError(code, { ...parameters, status: relayStatuses[code] })
}
