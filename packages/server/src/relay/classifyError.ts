import { isPaySessionError, type PaySessionError } from '@paysession/protocol'
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  TimeoutError,
  WebSocketRequestError,
} from 'viem'
import { type RelayErrorCode, relayError } from './errors.js'

// The token's revert reasons (FiatToken v2, OpenZeppelin's ERC-20), from the decoded
// `Error(string)` viem puts on ContractFunctionRevertedError.reason.
const reasons: [suffix: string, code: RelayErrorCode][] = [
  ['authorization is used or canceled', 'AUTHORIZATION_USED'],
  ['invalid signature', 'INVALID_SIGNATURE'],
  ['transfer amount exceeds balance', 'INSUFFICIENT_BALANCE'],
  ['authorization is expired', 'AUTHORIZATION_EXPIRED'],
  ['authorization is not yet valid', 'AUTHORIZATION_NOT_YET_VALID'],
]

/** A simulation's or a send's failure as the relay's refusal, from viem's typed errors. */
export function classifyError(error: unknown): PaySessionError {
  if (isPaySessionError(error)) return error
  const reverted =
    error instanceof BaseError
      ? (error.walk((e) => e instanceof ContractFunctionRevertedError) as
          | ContractFunctionRevertedError
          | undefined)
      : undefined
  const reason = reverted?.reason
  const code =
    (reason !== undefined && reasons.find(([suffix]) => reason.endsWith(suffix))?.[1]) ||
    'RELAY_UNAVAILABLE'
  const details =
    reason ?? (error instanceof BaseError ? error.shortMessage : String(error).split('\n')[0])
  return relayError(code, { details, cause: error })
}

/**
 * Whether the node may have received a send that failed: no answer (a timeout, a lost
 * connection). An answer that refused it (an RPC error) means nothing was sent.
 */
export function mayHaveBeenSent(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    !!error.walk(
      (e) =>
        e instanceof TimeoutError ||
        e instanceof HttpRequestError ||
        e instanceof WebSocketRequestError,
    )
  )
}
