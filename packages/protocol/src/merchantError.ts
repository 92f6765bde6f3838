import {
  customerMessages,
  merchantMessages,
  type PaySessionErrorCode,
  relayMessages,
} from './codes.js'
import { PaySessionError, type PaySessionErrorParameters } from './errors.js'

/** Every code's sentence: the one codes table. */
export const shortMessages: Record<PaySessionErrorCode, string> = {
  ...customerMessages,
  ...merchantMessages,
  ...relayMessages,
}

export const paySessionErrorCodes = Object.keys(shortMessages) as PaySessionErrorCode[]

/**
 * A PaySessionError with the code's sentence from the whole table (what the server throws).
 * @example throw merchantError('INVALID_CONFIG', { details: 'apiKey is required.' })
 */
export function merchantError(
  code: PaySessionErrorCode,
  parameters: PaySessionErrorParameters = {},
): PaySessionError {
  return new PaySessionError(code, { shortMessage: shortMessages[code], ...parameters })
}
