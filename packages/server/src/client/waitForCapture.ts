import { merchantError } from '../errors/index.js'
import type { PaySessionClient } from './createPaySessionClient.js'
import type { Capture } from './types.js'

export type WaitForCaptureOptions = {
  /** Give up after this long. Default 60 000 ms. */
  timeoutMs?: number
  /** Between two reads. Default 1000 ms. */
  intervalMs?: number
  signal?: AbortSignal
}

/**
 * Polls get capture until the capture leaves CAPTURING, and returns it (CAPTURED,
 * or FAILED on the sandbox). Throws `TIMEOUT` when it does not in time.
 *
 * @example
 * const done = await waitForCapture(client, sessionId, capture.captureId, { timeoutMs: 30_000 })
 */
export async function waitForCapture(
  client: Pick<PaySessionClient, 'getCapture'>,
  paymentSessionId: string,
  captureId: string,
  options: WaitForCaptureOptions = {},
): Promise<Capture> {
  const { timeoutMs = 60_000, intervalMs = 1000, signal } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    signal?.throwIfAborted()
    const capture = await client.getCapture(paymentSessionId, captureId)
    if (capture.status !== 'CAPTURING') return capture
    if (Date.now() + intervalMs > deadline) {
      throw merchantError('TIMEOUT', {
        details: `capture ${captureId} still CAPTURING after ${timeoutMs} ms.`,
      })
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, intervalMs)
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          reject(signal.reason)
        },
        { once: true },
      )
    })
  }
}
