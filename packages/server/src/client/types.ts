import type {
  Capture,
  CreatedPaymentSession as ProtocolCreatedSession,
  PaymentSession as ProtocolSession,
} from '@paysession/protocol'

export {
  type Capture,
  type CaptureStatus,
  captureStatuses,
  isPaidStatus,
  isTerminalStatus,
  type SessionStatus,
  sessionStatuses,
} from '@paysession/protocol'

/**
 * A payment session (spec section 2.1). Only `paymentSessionId` and `status` are guaranteed;
 * extensions are present only when well-typed; `captures` holds the elements that are complete
 * captures.
 */
export type PaymentSession = Omit<ProtocolSession, 'captures'> & { captures?: Capture[] }

/**
 * What create session answers. The short variant carries only the identifier and the token, so
 * `status` may be missing; right after creation it is CREATED or PENDING.
 */
export type CreatedPaymentSession = Omit<ProtocolCreatedSession, 'captures'> & {
  captures?: Capture[]
  /** The idempotency key that was sent, so a caller can store it and replay. */
  requestId: string | null
}
