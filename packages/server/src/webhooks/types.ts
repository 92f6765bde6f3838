import type { SessionStatus } from '../client/types.js'

/**
 * A payment status update, as delivered to the merchant's webhook URL
 * (spec section 6), already validated.
 */
export type PaymentStatusUpdateEvent = {
  /** The JSON-RPC `id`: unique per delivery, kept by a retry of the same delivery. */
  id: string | number
  /** e.g. `paysession_paymentStatusUpdate`. */
  method: string
  merchantId: string
  paymentSessionId: string
  status: SessionStatus
  /** ISO 8601. */
  updatedAt: string
  /**
   * True when the `Paysession-Signature` was verified. False when the handler was
   * created with `insecureNoSignature: true`: then nothing proves the request came
   * from the service, so confirm the status with {@link confirmStatus} before acting on it.
   */
  verified: boolean
}

/** Why the handler refused a request. */
export type WebhookRejectionReason =
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'MISSING_SIGNATURE'
  | 'MALFORMED_SIGNATURE'
  | 'STALE_TIMESTAMP'
  | 'SIGNATURE_MISMATCH'
  | 'PARSE_ERROR'
  | 'INVALID_REQUEST'
  | 'METHOD_NOT_FOUND'
  | 'INVALID_PARAMS'
  | 'HANDLER_ERROR'
  /** Another instance is handling the same delivery right now (answered 409: deliver again). */
  | 'HANDLER_BUSY'

export type WebhookRejection = {
  reason: WebhookRejectionReason
  /** HTTP status answered. */
  status: number
  message: string
  /** The JSON-RPC id, when the body got far enough to have one. */
  id: string | number | null
  /** What `onEvent` threw, for HANDLER_ERROR. */
  error?: unknown
}
