import type { CaptureStatus, SessionStatus } from './status.js'

/** A capture (spec section 2.2), whichever name the service used for its identifier. */
export type Capture = {
  /** From `captureId`, or `paymentCaptureId` as the quickstart names it. */
  captureId: string
  status: CaptureStatus
  captureAmount: string
  /** "0.00" when nothing is refunded (and when the service leaves it out). */
  refundAmount: string
  captureTransferTransactionHash: string | null
  refundTransferTransactionHash: string | null
  /** From `finalCapture`, or `isFinalCapture`. */
  finalCapture?: boolean | undefined
  createdAt?: string | undefined
}

/**
 * A payment session (spec section 2.1). Only `paymentSessionId` and `status` are guaranteed;
 * the service's answers differ in which other fields they carry. Fields the spec does not list
 * are present only when they had the expected type; other unknown fields are kept as sent.
 */
export type PaymentSession = {
  paymentSessionId: string
  status: SessionStatus
  amount?: string | undefined
  currency?: string | undefined
  network?: string | undefined
  tokenSymbol?: string | undefined
  oneTimeWalletAddress?: string | undefined
  userAddress?: string | null | undefined
  fundingTransactionHash?: string | null | undefined
  userSubmittedTransactionHash?: string | null | undefined
  capturableAmount?: string | undefined
  capturedAmount?: string | undefined
  /** As sent: the spec shows only "status and transaction hashes" for its elements (see parseCaptures). */
  captures?: unknown[] | undefined
  createdAt?: string | undefined
  /** Extension: the token symbols this session's one-time wallet accepts. */
  acceptedTokens?: string[] | undefined
  /** Extension: what has arrived so far, a decimal string. */
  receivedAmount?: string | undefined
  /** Extension: the end of the funding window (ISO 8601). */
  expiresAt?: string | undefined
  /** Extension: the EVM chain id of `network`. */
  chainId?: number | undefined
}

/**
 * What create session answers. The short variant carries only the identifier and the token, so
 * `status` may be missing; right after creation it is CREATED or PENDING.
 */
export type CreatedPaymentSession = Omit<PaymentSession, 'status'> & {
  paymentSessionToken: string
  status?: SessionStatus | undefined
  /** Extension: when the session token stops working (ISO 8601). */
  paymentSessionTokenExpiresAt?: string | undefined
}

/** What associate funding transaction answers (section 4.3): `success`, plus extensions. */
export type FundingResponse = {
  success: boolean
  /** Extension: the session's status after the report. */
  status?: SessionStatus | undefined
  /** Extension: with `wait`, whether the transaction was processed. */
  processed?: boolean | undefined
}
