import { type PaySessionErrorCode, shortMessages } from './codes.js'

export type PaySessionErrorParameters = {
  /** Defaults to the code's standard sentence. */
  shortMessage?: string
  /** Technical detail for logs, never shown to a customer. */
  details?: string
  /** HTTP status of the service's answer, when there was one. */
  status?: number
  /** The service's own error code, when it answered one this package does not know. */
  serviceCode?: string
  docsPath?: string
  cause?: unknown
}

/**
 * The one error class this package throws, with a stable `code`.
 *
 * @example
 * try {
 *   await client.createCapture(id, { captureAmount: '5.00' })
 * } catch (error) {
 *   if (error instanceof PaySessionError && error.code === 'SESSION_NOT_CAPTURABLE') retryLater()
 *   else throw error
 * }
 */
export class PaySessionError extends Error {
  override name = 'PaySessionError'
  readonly code: PaySessionErrorCode
  readonly shortMessage: string
  readonly details: string | undefined
  readonly status: number | undefined
  readonly serviceCode: string | undefined
  readonly docsPath: string | undefined

  constructor(code: PaySessionErrorCode, parameters: PaySessionErrorParameters = {}) {
    const shortMessage = parameters.shortMessage ?? shortMessages[code]
    const lines = [shortMessage]
    if (parameters.details) lines.push(`Details: ${parameters.details}`)
    if (parameters.status !== undefined) lines.push(`HTTP status: ${parameters.status}`)
    if (parameters.docsPath) lines.push(`Docs: ${parameters.docsPath}`)
    super(
      lines.join('\n'),
      parameters.cause === undefined ? undefined : { cause: parameters.cause },
    )
    this.code = code
    this.shortMessage = shortMessage
    this.details = parameters.details
    this.status = parameters.status
    this.serviceCode = parameters.serviceCode
    this.docsPath = parameters.docsPath
  }
}

/** True when `error` is a {@link PaySessionError}, optionally with the given code. */
export function isPaySessionError(
  error: unknown,
  code?: PaySessionErrorCode,
): error is PaySessionError {
  return error instanceof PaySessionError && (code === undefined || error.code === code)
}
