import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { ApiErrorCode } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import { isSettled } from '../utils/status.js'
import { watchSession } from './watchSession.js'

export type WaitForSessionParameters = {
  sessionId: string
  sessionToken: string
  /** Resolve when this returns true. Default: paid (FUNDED, CAPTURING) or terminal. */
  until?: ((session: PaymentSession) => boolean) | undefined
  signal?: AbortSignal | undefined
  /** Give up after this many ms with `TIMEOUT`. Default: never. */
  timeout?: number | undefined
  isActive?: (() => boolean) | undefined
}
export type WaitForSessionReturnType = PaymentSession
export type WaitForSessionErrorType = PaySessionError<ApiErrorCode | 'ABORTED' | 'TIMEOUT'>

/**
 * Resolves with the session once `until` holds; rejects on a final API error, time-out or abort.
 * @example const session = await waitForSession(config, { sessionId, sessionToken, timeout: 60_000 })
 */
export function waitForSession(
  config: PaySessionConfig,
  parameters: WaitForSessionParameters,
): Promise<WaitForSessionReturnType> {
  const { until = isSettled, signal, timeout } = parameters
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PaySessionError('ABORTED', { cause: signal.reason }))
    const { clock } = config.polling
    let timer: unknown
    let stop: (() => void) | undefined
    let done = false
    const finish = (settle: () => void) => {
      if (done) return
      done = true
      stop?.()
      if (timer !== undefined) clock.clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      settle()
    }
    const onAbort = () =>
      finish(() => reject(new PaySessionError('ABORTED', { cause: signal?.reason })))
    signal?.addEventListener('abort', onAbort)
    if (timeout !== undefined)
      timer = clock.setTimeout(() => finish(() => reject(new PaySessionError('TIMEOUT'))), timeout)
    stop = watchSession(config, {
      sessionId: parameters.sessionId,
      sessionToken: parameters.sessionToken,
      isActive: parameters.isActive,
      onChange: (session) => {
        if (until(session)) finish(() => resolve(session))
      },
      onError: (error, final) => {
        if (final) finish(() => reject(error))
      },
    })
    if (done) stop()
  })
}
