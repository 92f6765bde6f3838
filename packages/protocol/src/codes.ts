import type { MerchantErrorCode } from './merchantCodes.js'

/**
 * The codes a customer's checkout can meet, each with a sentence safe to show a customer. With
 * the merchant's codes (merchantCodes.ts) they are the SDK's one codes table; a code's meaning
 * never changes, and each has a heading in docs/errors.md. The two halves live in two modules
 * so that the browser bundle carries only the sentences a customer can see.
 */
export const customerMessages = {
  // The service's answers (README: "Where the spec says not shown", Errors)
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
export type PaySessionErrorCode = CustomerErrorCode | MerchantErrorCode
