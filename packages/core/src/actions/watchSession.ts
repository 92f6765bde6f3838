import { QueryObserver } from '@tanstack/query-core'
import { fetchSession, type PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { ApiErrorCode } from '../errors/api.js'
import { isRetryableApiError } from '../errors/api.js'
import type { PaySessionError } from '../errors/base.js'
import { pollInterval, retryDelay } from '../utils/poll.js'
import { isTerminalStatus } from '../utils/status.js'

export type WatchSessionParameters = {
  sessionId: string
  sessionToken: string
  onChange: (session: PaymentSession) => void
  /** A failed poll. `final` is true when polling stopped because of it (bad token, not found). */
  onError?: ((error: PaySessionError, final: boolean) => void) | undefined
  /** Poll at `polling.interval` while this returns true (a payment is in flight). */
  isActive?: (() => boolean) | undefined
}
export type WatchSessionReturnType = () => void

export const sessionQueryKey = (sessionId: string) => ['paysession', 'session', sessionId] as const

export type WatchSessionErrorType = PaySessionError<ApiErrorCode>

/**
 * Polls the session through query-core: `polling.interval` while a payment is in flight,
 * `idleInterval` otherwise (each wait jittered), exponential backoff with full jitter on errors,
 * paused while offline or hidden, and stopped for good at a terminal status. Returns the
 * unsubscribe function.
 * @example const stop = watchSession(config, { sessionId, sessionToken, onChange: render })
 */
export function watchSession(
  config: PaySessionConfig,
  parameters: WatchSessionParameters,
): WatchSessionReturnType {
  const { sessionId, sessionToken, onChange, onError, isActive } = parameters
  const terminal = (session: PaymentSession | undefined) =>
    !!session && isTerminalStatus(session.status)
  const observer = new QueryObserver<PaymentSession, PaySessionError>(config.queryClient, {
    queryKey: sessionQueryKey(sessionId),
    queryFn: ({ signal }) => fetchSession(config, { sessionId, sessionToken, signal }),
    staleTime: 0,
    retry: (_failures, error) => isRetryableApiError(error),
    retryDelay: (failures) => retryDelay(config.polling, failures),
    refetchInterval: (query) => {
      if (terminal(query.state.data) || query.state.status === 'error') return false
      const { interval, idleInterval } = config.polling
      return pollInterval(config.polling, isActive?.() ? interval : idleInterval)
    },
    refetchOnWindowFocus: (query) => !terminal(query.state.data),
    refetchOnReconnect: (query) => !terminal(query.state.data),
  })

  let stopped = false
  let lastData: PaymentSession | undefined
  let lastFailure: unknown
  const stop = () => {
    if (stopped) return
    stopped = true
    unsubscribe()
    config.queryClient.unmount()
  }
  config.queryClient.mount()
  const unsubscribe = observer.subscribe((result) => {
    if (stopped) return
    if (result.failureReason && result.failureReason !== lastFailure) {
      lastFailure = result.failureReason
      onError?.(result.failureReason, result.status === 'error')
    }
    if (result.status === 'error') return stop()
    if (result.data && result.data !== lastData) {
      lastData = result.data
      onChange(result.data)
      if (terminal(result.data)) stop()
    }
  })
  const current = observer.getCurrentResult().data
  if (current && !stopped) {
    lastData = current
    onChange(current)
  }
  return stop
}
