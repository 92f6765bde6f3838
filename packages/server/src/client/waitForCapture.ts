import { type Clock, poll, systemClock } from '@paysession/protocol'
import { merchantError } from '../errors/index.js'
import type { PaySessionClient } from './createPaySessionClient.js'
import type { Capture } from './types.js'

export type WaitForCaptureOptions = {
  /** Give up after this long, in ms. Default 60 000. The same name as core's `waitForSession`. */
  timeout?: number
  /** Between two reads, in ms. Default 1000. The same name as core's `polling.interval`. */
  interval?: number
  signal?: AbortSignal
  /** Where the waits get their time. Default the system's; tests pass a fake one. */
  clock?: Clock
}

/**
 * Polls get capture until the capture leaves CAPTURING, and returns it (CAPTURED,
 * or FAILED on the sandbox). Throws `TIMEOUT` when it does not in time.
 *
 * @example
 * const done = await waitForCapture(client, sessionId, capture.captureId, { timeout: 30_000 })
 */
export async function waitForCapture(
  client: Pick<PaySessionClient, 'getCapture'>,
  sessionId: string,
  captureId: string,
  options: WaitForCaptureOptions = {},
): Promise<Capture> {
  const { interval = 1000, timeout = 60_000, signal, clock = systemClock } = options
  signal?.throwIfAborted()
  const capture = await poll({
    read: () => client.getCapture(sessionId, captureId),
    until: (read) => read.status !== 'CAPTURING',
    interval,
    deadline: clock.now() + timeout,
    signal,
    clock,
  })
  signal?.throwIfAborted()
  if (capture) return capture
  throw merchantError('TIMEOUT', {
    details: `capture ${captureId} still CAPTURING after ${timeout} ms.`,
  })
}
