export { stablecoinAbi, tokenControlsAbi, tokenMetadataAbi } from './abi.js'
export {
  assertAmount,
  decimalPattern,
  decimalToUnits,
  isSameAmount,
  isValidAmount,
  parseAmount,
  unitsToDecimal,
} from './amount.js'
export { absoluteApiBase, normalizeApiBase } from './apiBase.js'
export { parseCapture, parseCaptures } from './capture.js'
export {
  type CustomerErrorCode,
  customerMessages,
  isPaySessionErrorCode,
  type MerchantErrorCode,
  merchantMessages,
  type PaySessionErrorCode,
  relayMessages,
} from './codes.js'
export { eip3009Abi, transferWithAuthorizationTypes } from './eip3009.js'
export {
  docsBase,
  isPaySessionError,
  PaySessionError,
  type PaySessionErrorParameters,
  version,
  walk,
} from './errors.js'
export { parseFundingResponse } from './funding.js'
export { BodyTooLargeError, jsonResponse, readBody } from './http.js'
export { isPlainId } from './ids.js'
export { merchantError, paySessionErrorCodes, shortMessages } from './merchantError.js'
export { extensionFields, withUsableExtensions } from './rules.js'
export { isSecureUrl } from './secureUrl.js'
export {
  type Backoff,
  backoffDelay,
  isRetryableStatus,
  isTokenRefused,
  isUnknownRoute,
  type ServiceOperation,
  type ServiceResource,
  serviceErrorBody,
  serviceErrorCode,
  servicePaths,
  type TokenRefusedCode,
  tokenRefusedCodes,
} from './service.js'
export { parseCreatedSession, parseSession, parseSessionStatus } from './session.js'
export {
  type CaptureStatus,
  captureStatuses,
  isCaptureStatus,
  isPaidStatus,
  isSessionStatus,
  isTerminalStatus,
  type PaidStatus,
  type SessionStatus,
  sameName,
  sessionStatuses,
} from './status.js'
export {
  type Clock,
  type PollParameters,
  poll,
  sleep,
  systemClock,
} from './timing.js'
export type { Capture, CreatedPaymentSession, FundingResponse, PaymentSession } from './types.js'
export { checkSocketUrl, checkUrl } from './url.js'
export {
  formatWebhookSignature,
  parseWebhookSignature,
  webhookSignatureHeader,
  webhookSignedPayload,
  webhookSignedPrefix,
} from './webhookSignature.js'
