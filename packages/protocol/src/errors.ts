import { type CustomerErrorCode, customerMessages, type PaySessionErrorCode } from './codes.js'

/** Where the docs live; every code has a heading there (`#` + the code in lower case). */
export const docsBase = 'docs/errors.md'
export const version = '@paysession/protocol@0.1.0'

export type PaySessionErrorParameters = {
  /** Defaults to the code's standard sentence. */
  shortMessage?: string | undefined
  /** Technical detail for logs, never shown to a customer. */
  details?: string | undefined
  /** The docs page and heading; defaults to the code's heading in docs/errors.md. */
  docsPath?: string | undefined
  /** HTTP status of the service's answer, when there was one. */
  status?: number | undefined
  /** The service's own error code, when it answered one the SDK maps to another. */
  serviceCode?: string | undefined
  cause?: unknown
}

/**
 * The one error class of the SDK (core, server and the widget throw it): a stable `code`, a
 * `shortMessage` safe to show, developer `details`, a `docsPath` to the code's heading, the HTTP
 * `status` when it came from the service, and the original `cause`. Like viem's BaseError, the
 * `message` carries the details, the docs link and the version.
 * @example
 * if (error instanceof PaySessionError && error.code === 'USER_REJECTED') showRetry()
 */
export class PaySessionError<Code extends PaySessionErrorCode = PaySessionErrorCode> extends Error {
  override name = 'PaySessionError'
  /** The stable code; an action's `XErrorType` narrows it to the codes that action can throw. */
  readonly code: Code
  readonly shortMessage: string
  readonly details: string | undefined
  readonly docsPath: string
  readonly status: number | undefined
  readonly serviceCode: string | undefined

  constructor(code: Code, parameters: PaySessionErrorParameters = {}) {
    // A merchant-only code without a sentence gets API_ERROR's; the server passes its own
    // (merchantError), so browsers do not carry the merchant's sentences.
    const shortMessage =
      parameters.shortMessage ??
      customerMessages[code as CustomerErrorCode] ??
      customerMessages.API_ERROR
    const docsPath = parameters.docsPath ?? `${docsBase}#${code.toLowerCase()}`
    super(
      [
        shortMessage,
        parameters.details && `Details: ${parameters.details}`,
        parameters.status && `HTTP status: ${parameters.status}`,
        `Docs: ${docsPath}`,
        `Version: ${version}`,
      ]
        .filter(Boolean)
        .join('\n'),
      parameters.cause === undefined ? undefined : { cause: parameters.cause },
    )
    this.code = code
    this.shortMessage = shortMessage
    this.details = parameters.details
    this.docsPath = docsPath
    this.status = parameters.status
    this.serviceCode = parameters.serviceCode
  }

  /**
   * Follows `cause` (as viem's `walk`): the first error in the chain, this one included, for
   * which `match` holds, or without `match` the deepest cause. `null` when nothing matches.
   * @example error.walk((e) => e instanceof UserRejectedRequestError)
   */
  walk(match?: (error: unknown) => boolean): unknown {
    return walk(this, match)
  }
}

/** {@link PaySessionError.walk} for any error. */
export function walk(error: unknown, match?: (error: unknown) => boolean): unknown {
  let current = error
  for (let depth = 0; depth < 32 && !match?.(current); depth++) {
    const next = (current as { cause?: unknown } | null | undefined)?.cause
    if (next == null) return match ? null : current
    current = next
  }
  return current
}

/**
 * Whether the value is a PaySessionError, optionally with one of the given codes.
 * @example if (isPaySessionError(error, 'SESSION_TOKEN_EXPIRED')) askForANewLink()
 */
export function isPaySessionError<Code extends PaySessionErrorCode = PaySessionErrorCode>(
  value: unknown,
  ...codes: Code[]
): value is PaySessionError<Code> {
  return (
    value instanceof PaySessionError && (codes.length === 0 || codes.includes(value.code as Code))
  )
}
