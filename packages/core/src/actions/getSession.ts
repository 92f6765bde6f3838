import type { ApiConfig } from '../api/config.js'
import { fetchSession, type PaymentSession } from '../api/session.js'
import type { ApiErrorCode } from '../errors/api.js'
import type { PaySessionError } from '../errors/base.js'

export type GetSessionParameters = {
  sessionId: string
  sessionToken: string
  signal?: AbortSignal | undefined
}
export type GetSessionReturnType = PaymentSession
export type GetSessionErrorType = PaySessionError<ApiErrorCode>

/**
 * Reads the session with its session token (one request, no retry). Needs no wallet: a
 * `PaySessionConfig` or the lighter `createApiConfig({ apiBase })` does.
 * @example const session = await getSession(config, { sessionId, sessionToken })
 */
export function getSession(
  config: ApiConfig,
  parameters: GetSessionParameters,
): Promise<GetSessionReturnType> {
  return fetchSession(config, parameters)
}
