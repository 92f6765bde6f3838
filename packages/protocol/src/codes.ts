// The SDK's one codes table: the codes a customer's checkout can meet, the codes only the
// merchant's API-key calls meet, and the gasless relay's refusals. A code's meaning never changes, and each has a
// heading in docs/errors.md. Two objects so that a browser bundle, which reads only
// `customerMessages` (errors.ts), carries only the sentences a customer can see.

/** The codes a customer's checkout can meet, each with a sentence safe to show a customer. */
export const customerMessages = {
  // The service's answers (docs/service.md, Errors)
  UNAUTHORIZED: 'This payment link is not valid.',
  // Not "expired": the session may well be payable, or paid (a customer told otherwise may pay twice).
  SESSION_TOKEN_EXPIRED: 'This page can no longer follow the payment with the service.',
  SESSION_NOT_FOUND: 'This payment could not be found.',
  SESSION_NOT_PAYABLE: 'This payment can no longer be paid.',
  TRANSACTION_DOES_NOT_FUND_SESSION: 'This transaction does not pay this checkout.',
  TRANSACTION_REVERTED: 'The transaction failed on chain. No funds were moved.',
  INVALID_TRANSACTION_HASH: 'The transaction reference is not valid.',
  // The merchant page's settings (core checks them before anything is requested or offered)
  INSECURE_API_BASE: 'This checkout is not set up securely. Please contact the merchant.',
  SESSION_MISMATCH: 'This payment does not match your order. Please contact the merchant.',
  // Also in merchantMessages, with the server's sentence. In a checkout it is a refusal for
  // safety (a URL, a token that does not match the chain), so it reads as INSECURE_API_BASE
  // (the widget's languages say it with that code's sentence).
  INVALID_CONFIG: 'This checkout is not set up securely. Please contact the merchant.',
  // Talking to the service
  API_UNAVAILABLE: 'The payment service is unreachable. Please try again.',
  API_ERROR: 'The payment service refused the request.',
  INVALID_RESPONSE: 'The payment service sent an unexpected answer.',
  // Session status
  SESSION_EXPIRED: 'This payment has expired.',
  SESSION_FAILED: 'This payment could not be processed.',
  // Registry and input
  UNSUPPORTED_NETWORK: 'This payment uses a network that is not supported here.',
  UNSUPPORTED_TOKEN: 'This payment uses a token that is not supported here.',
  INVALID_ADDRESS: 'The payment address could not be verified.',
  INVALID_AMOUNT: 'The amount is not valid.',
  // Wallet and chain
  WALLET_NOT_FOUND: 'No wallet was found.',
  WALLET_NOT_CONNECTED: 'Connect a wallet first.',
  USER_REJECTED: 'The request was declined in your wallet.',
  WRONG_NETWORK: 'Your wallet is on the wrong network.',
  INSUFFICIENT_BALANCE: 'Your balance is too low for this payment.',
  // The token's issuer (Circle's FiatToken: pause, blacklist), checked before any prompt
  TOKEN_PAUSED:
    'This token is paused by its issuer and cannot be sent right now. Please pay with another token.',
  PAYER_BLOCKED:
    'This token’s issuer has blocked your wallet address. Please pay from another wallet or with another token.',
  RECIPIENT_BLOCKED:
    'This token’s issuer has blocked the payment address, so it cannot be paid with this token. Please contact the merchant.',
  TRANSACTION_FAILED: 'The transaction failed on chain. No funds were moved.',
  TRANSFER_MISMATCH: 'The transaction does not match this payment.',
  WALLET_ERROR: 'Your wallet reported an error.',
  CHAIN_UNAVAILABLE: 'The blockchain network could not be reached. Please try again.',
  // Never twice
  PAYMENT_IN_PROGRESS: 'A payment for this checkout is already in progress.',
  ALREADY_PAID: 'This checkout is already paid.',
  // Waiting
  TIMEOUT: 'This is taking longer than expected.',
  ABORTED: 'The operation was cancelled.',
} as const

export type CustomerErrorCode = keyof typeof customerMessages

/** The codes only the merchant's API-key calls meet, each with a sentence for the merchant's operator. */
export const merchantMessages = {
  FORBIDDEN: 'This credential may not perform this operation.',
  NOT_FOUND: 'The requested resource does not exist.',
  CAPTURE_NOT_FOUND: 'The capture does not exist.',
  SESSION_NOT_CAPTURABLE: 'The payment session cannot be captured in its current status.',
  AMOUNT_EXCEEDS_CAPTURABLE: 'The capture amount exceeds what can still be captured.',
  IDEMPOTENCY_CONFLICT: 'This requestId was already used with a different request.',
  INVALID_REQUEST: 'The request was missing a field or had a field of the wrong type.',
  INVALID_REQUEST_ID: 'The requestId is not valid.',
  MALFORMED_JSON: 'The request body was not valid JSON.',
  METHOD_NOT_ALLOWED: 'This operation does not accept that HTTP method.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json.',
  UNSUPPORTED_CURRENCY: 'The currency is not supported.',
  INVALID_CONFIG: 'The payment client is not configured correctly.',
} as const

/**
 * The gasless relay's refusals (`createRelayHandler` of `@paysession/server/relay`). The relay
 * answers with the sentence, so the checkout shows it without carrying these in its bundle.
 */
export const relayMessages = {
  RELAY_REFUSED: 'This authorization cannot be submitted. Please sign the payment again.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  WRONG_AMOUNT: 'The authorization is not for the amount this payment still owes.',
  AUTHORIZATION_NOT_YET_VALID: 'The authorization is not valid yet.',
  AUTHORIZATION_EXPIRED: 'The authorization has expired or expires too soon. Please sign again.',
  AUTHORIZATION_TOO_LONG: 'The authorization is valid for too long.',
  INVALID_SIGNATURE: 'The signature does not match the authorization.',
  AUTHORIZATION_USED: 'This authorization was already used or canceled.',
  ALREADY_RELAYED: 'A payment for this checkout was already submitted.',
  PAYER_BUSY:
    'An earlier payment from this wallet is still being confirmed. Please try again in a minute.',
  GAS_LIMIT_EXCEEDED: 'This payment needs more network fees than the merchant covers.',
  FEE_TOO_HIGH: 'Network fees are too high right now. Please try again later.',
  RELAYER_UNDERFUNDED: 'Payments without network fees are not available right now.',
  RELAY_UNAVAILABLE: 'The payment could not be submitted right now. Please try again in a moment.',
} as const

export type MerchantErrorCode = keyof typeof merchantMessages | keyof typeof relayMessages
export type PaySessionErrorCode = CustomerErrorCode | MerchantErrorCode

/** Whether the value is one of the SDK's codes (any part of the table). */
export function isPaySessionErrorCode(value: unknown): value is PaySessionErrorCode {
  return (
    typeof value === 'string' &&
    (Object.hasOwn(customerMessages, value) ||
      Object.hasOwn(merchantMessages, value) ||
      Object.hasOwn(relayMessages, value))
  )
}
