import { invalid, isNullableString, isString, listed, object, required } from './rules.js'
import { captureStatuses } from './status.js'
import type { Capture } from './types.js'

/**
 * A capture (section 2.2), under either id name (`captureId`, `paymentCaptureId`) and either
 * flag name (`finalCapture`, `isFinalCapture`).
 * @example const capture = parseCapture(await response.json())
 */
export function parseCapture(body: unknown, what = 'capture'): Capture {
  const source = object(body, what)
  const captureId = source.captureId ?? source.paymentCaptureId
  if (!isString(captureId) || captureId === '') invalid(`${what} has no captureId.`)
  const status = source.status
  if (!(captureStatuses as readonly unknown[]).includes(status))
    invalid(
      `${what}.status is ${JSON.stringify(status)}, not one of ${captureStatuses.join(', ')}.`,
    )
  const finalCapture = source.finalCapture ?? source.isFinalCapture
  if (finalCapture !== undefined && typeof finalCapture !== 'boolean')
    invalid(`${what}.finalCapture is not a boolean.`)
  for (const key of ['refundAmount', 'createdAt']) listed(source, key, isString, what)
  for (const key of ['captureTransferTransactionHash', 'refundTransferTransactionHash'])
    listed(source, key, isNullableString, what)
  const capture: Capture = {
    captureId,
    status: status as Capture['status'],
    captureAmount: required(source, 'captureAmount', what),
    refundAmount: (source.refundAmount as string | undefined) ?? '0.00',
    captureTransferTransactionHash: (source.captureTransferTransactionHash as string) ?? null,
    refundTransferTransactionHash: (source.refundTransferTransactionHash as string) ?? null,
  }
  if (finalCapture !== undefined) capture.finalCapture = finalCapture as boolean
  if (source.createdAt !== undefined) capture.createdAt = source.createdAt as string
  return capture
}

/**
 * The elements of a session's `captures` (section 2.1 shows only "status and transaction
 * hashes" for them): the complete captures; an element that is not one is left out.
 */
export function parseCaptures(list: readonly unknown[], what = 'captures'): Capture[] {
  return list.flatMap((element, i) => {
    try {
      return [parseCapture(element, `${what}[${i}]`)]
    } catch {
      return []
    }
  })
}
