import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { apiRequest } from './request.js'

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

/** The session as the client sees it. Optional fields may be missing; unknown fields are kept. */
export type PaymentSession = {
  paymentSessionId: string
  status: SessionStatus
  amount: string
  currency?: string | undefined
  network?: string | undefined
  tokenSymbol?: string | undefined
  oneTimeWalletAddress?: string | undefined
  userAddress?: string | null | undefined
  fundingTransactionHash?: string | null | undefined
  userSubmittedTransactionHash?: string | null | undefined
  createdAt?: string | undefined
  /** Extension: the token symbols this OTW accepts. */
  acceptedTokens?: string[] | undefined
  /** Extension: what has arrived so far in the funding token. */
  receivedAmount?: string | undefined
  /** Extension: end of the funding window. */
  expiresAt?: string | undefined
  chainId?: number | undefined
  [extra: string]: unknown
}

export type ReportFundingResponse = {
  success: boolean
  status?: SessionStatus
  processed?: boolean
}

const sessionPath = (id: string) => `/payment-sessions/${encodeURIComponent(id)}`

export async function fetchSession(
  config: PaySessionConfig,
  parameters: { sessionId: string; sessionToken: string; signal?: AbortSignal | undefined },
): Promise<PaymentSession> {
  const path = sessionPath(parameters.sessionId)
  const body = await apiRequest(config, {
    method: 'GET',
    paths: [path, `/api/v1${path}`],
    sessionToken: parameters.sessionToken,
    signal: parameters.signal,
  })
  return parseSession(body)
}

export async function postFundingTransaction(
  config: PaySessionConfig,
  parameters: {
    sessionId: string
    sessionToken: string
    hash: string
    wait?: boolean | undefined
    signal?: AbortSignal | undefined
  },
): Promise<ReportFundingResponse> {
  const path = `${sessionPath(parameters.sessionId)}/funding-transaction`
  const body = await apiRequest(config, {
    method: 'POST',
    paths: [`/api/v1${path}`, path],
    sessionToken: parameters.sessionToken,
    body: { fundingTransactionHash: parameters.hash, wait: parameters.wait ?? false },
    signal: parameters.signal,
  })
  const object = asObject(body)
  if (typeof object.success !== 'boolean') invalid('success is not a boolean')
  const status = object.status === undefined ? undefined : parseStatus(object.status)
  return {
    success: object.success as boolean,
    ...(status ? { status } : {}),
    ...(typeof object.processed === 'boolean' ? { processed: object.processed } : {}),
  }
}

/** Tolerant parsing: required fields checked, optional fields type-checked when present. */
export function parseSession(body: unknown): PaymentSession {
  const object = asObject(body)
  if (typeof object.paymentSessionId !== 'string' || object.paymentSessionId === '')
    invalid('paymentSessionId is missing')
  if (typeof object.amount !== 'string') invalid('amount is missing or not a string')
  for (const key of ['currency', 'network', 'tokenSymbol', 'oneTimeWalletAddress', 'createdAt'])
    optional(object, key, (v) => typeof v === 'string')
  for (const key of ['userAddress', 'fundingTransactionHash', 'userSubmittedTransactionHash'])
    optional(object, key, (v) => v === null || typeof v === 'string')
  optional(object, 'receivedAmount', (v) => typeof v === 'string')
  optional(object, 'expiresAt', (v) => typeof v === 'string')
  optional(object, 'chainId', (v) => typeof v === 'number')
  optional(
    object,
    'acceptedTokens',
    (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  )
  return { ...object, status: parseStatus(object.status) } as PaymentSession
}

function parseStatus(value: unknown): SessionStatus {
  if (!sessionStatuses.includes(value as SessionStatus)) invalid(`unknown status ${String(value)}`)
  return value as SessionStatus
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) invalid('not an object')
  return body as Record<string, unknown>
}

function optional(object: Record<string, unknown>, key: string, check: (v: unknown) => boolean) {
  if (object[key] !== undefined && !check(object[key])) invalid(`${key} has the wrong type`)
}

function invalid(details: string): never {
  throw new PaySessionError('INVALID_RESPONSE', { details })
}
