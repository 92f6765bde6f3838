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

/** Capture status values (section 2.2): CAPTURING, CAPTURED, and the sandbox's FAILED extension. */
export const captureStatuses = ['CAPTURING', 'CAPTURED', 'FAILED'] as const
export type CaptureStatus = (typeof captureStatuses)[number]

export const isSessionStatus = (value: unknown): value is SessionStatus =>
  (sessionStatuses as readonly unknown[]).includes(value)

export const isCaptureStatus = (value: unknown): value is CaptureStatus =>
  (captureStatuses as readonly unknown[]).includes(value)

/**
 * True when the customer has paid: FUNDED, CAPTURING or SUCCEEDED.
 * @example if (isPaidStatus(session.status)) ship()
 */
/** A status in which the customer has paid. */
export type PaidStatus = Extract<SessionStatus, 'FUNDED' | 'CAPTURING' | 'SUCCEEDED'>

export const isPaidStatus = (status: SessionStatus): status is PaidStatus =>
  status === 'FUNDED' || status === 'CAPTURING' || status === 'SUCCEEDED'

/**
 * True when the session will not change any more: SUCCEEDED, CANCELED or ERROR.
 * @example if (isTerminalStatus(session.status)) stopPolling()
 */
export const isTerminalStatus = (status: SessionStatus): boolean =>
  status === 'SUCCEEDED' || status === 'CANCELED' || status === 'ERROR'

/**
 * Network names and token symbols compare case-insensitively (the spec shows only examples of
 * their values): `usdc` is USDC.
 * @example sameName('usdc', 'USDC') // true
 */
export const sameName = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toUpperCase() === b.toUpperCase()
