import { fetchSession, type PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { PaySessionError } from '../errors/base.js'

export type GetSessionParameters = {
  sessionId: string
  sessionToken: string
  signal?: AbortSignal | undefined
}
export type GetSessionReturnType = PaymentSession
export type GetSessionErrorType = PaySessionError

/**
 * Reads the session with its session token (one request, no retry).
 * @example const session = await getSession(config, { sessionId, sessionToken })
 */
export function getSession(
  config: PaySessionConfig,
  parameters: GetSessionParameters,
): Promise<GetSessionReturnType> {
  return fetchSession(config, parameters)
}
