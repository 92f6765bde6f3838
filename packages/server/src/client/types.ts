/** Session status values (spec section 3.1). */
export const sessionStatuses = [
  'CREATED',
  'PENDING',
  'FUNDED',
  'CAPTURING',
  'SUCCEEDED',
  'CANCELED',
  'ERROR',
] as const
export type SessionStatus = (typeof sessionStatuses)[number]

/** Capture status values: CAPTURING, CAPTURED, and the sandbox's FAILED extension. */
export const captureStatuses = ['CAPTURING', 'CAPTURED', 'FAILED'] as const
export type CaptureStatus = (typeof captureStatuses)[number]

/** True when the customer has paid: FUNDED, CAPTURING or SUCCEEDED. */
export function isPaidStatus(status: SessionStatus): boolean {
  return status === 'FUNDED' || status === 'CAPTURING' || status === 'SUCCEEDED'
}

/** True when the session will not change any more: SUCCEEDED, CANCELED or ERROR. */
export function isTerminalStatus(status: SessionStatus): boolean {
  return status === 'SUCCEEDED' || status === 'CANCELED' || status === 'ERROR'
}

/** A capture (spec section 2.2), whichever name the service used for its identifier. */
export type Capture = {
  /** From `captureId`, or `paymentCaptureId` as the quickstart names it. */
  captureId: string
  status: CaptureStatus
  captureAmount: string
  /** "0.00" when nothing is refunded. */
  refundAmount: string
  captureTransferTransactionHash: string | null
  refundTransferTransactionHash: string | null
  finalCapture?: boolean
  createdAt?: string
}

/**
 * A payment session (spec section 2.1). Only `paymentSessionId` and `status` are
 * guaranteed; the service's responses differ in which other fields they carry.
 */
export type PaymentSession = {
  paymentSessionId: string
  status: SessionStatus
  amount?: string
  currency?: string
  network?: string
  tokenSymbol?: string
  oneTimeWalletAddress?: string
  userAddress?: string | null
  fundingTransactionHash?: string | null
  userSubmittedTransactionHash?: string | null
  capturableAmount?: string
  capturedAmount?: string
  captures?: Capture[]
  createdAt?: string
  // Sandbox extensions: never required.
  acceptedTokens?: string[]
  receivedAmount?: string
  expiresAt?: string
  chainId?: number
}

/**
 * What create session answers. The short variant carries only the identifier and
 * the token, so `status` may be missing; right after creation it is CREATED or PENDING.
 */
export type CreatedPaymentSession = Omit<PaymentSession, 'status'> & {
  paymentSessionToken: string
  status?: SessionStatus
  paymentSessionTokenExpiresAt?: string
  /** The idempotency key that was sent, so a caller can store it and replay. */
  requestId: string | null
}
