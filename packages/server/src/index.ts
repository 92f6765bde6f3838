export { assertAmount, isValidAmount } from './amounts.js'
export {
  type CreateCaptureParameters,
  type CreatedCapture,
  type CreateSessionParameters,
  createPaySessionClient,
  type GetSessionOptions,
  type PaySessionClient,
  type PaySessionClientOptions,
} from './client/createPaySessionClient.js'
export type { RetryOptions } from './client/request.js'
export {
  type Capture,
  type CaptureStatus,
  type CreatedPaymentSession,
  captureStatuses,
  isPaidStatus,
  isTerminalStatus,
  type PaymentSession,
  type SessionStatus,
  sessionStatuses,
} from './client/types.js'
export { type WaitForCaptureOptions, waitForCapture } from './client/waitForCapture.js'
export {
  isPaySessionError,
  isPaySessionErrorCode,
  PaySessionError,
  type PaySessionErrorCode,
  type PaySessionErrorParameters,
  paySessionErrorCodes,
} from './errors/index.js'
export {
  createClientIp,
  ipRateLimitKey,
  setClientAddress,
  type TrustProxy,
} from './http/clientIp.js'
export {
  type ConfirmedStatus,
  type ConfirmStatusOptions,
  type ConfirmStatusResult,
  confirmStatus,
  type UnconfirmedStatus,
} from './webhooks/confirmStatus.js'
export {
  createWebhookHandler,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from './webhooks/createWebhookHandler.js'
export { createMemoryDedupeStore, dedupeKey, type WebhookDedupeStore } from './webhooks/dedupe.js'
export {
  signatureHeader,
  type VerifySignatureParameters,
  type VerifySignatureResult,
  verifyWebhookSignature,
} from './webhooks/signature.js'
export type {
  PaymentStatusUpdateEvent,
  WebhookRejection,
  WebhookRejectionReason,
} from './webhooks/types.js'
