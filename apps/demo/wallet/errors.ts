// The codes are viem's (EIP-1193, EIP-1474, EIP-5792); the error is EIP-1193's plain
// `{ code, message, data }`: viem's own error classes are a client's, their message adds viem's
// details and version, and a page's client wraps whatever a provider throws in those anyway.
import {
  BundleTooLargeError,
  ChainDisconnectedError,
  InternalRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  ProviderDisconnectedError,
  SwitchChainError,
  UnauthorizedProviderError,
  UnknownBundleIdError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem'

/** An EIP-1193 provider error, as the page receives it. */
export class WalletRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    if (data === undefined) delete (this as { data?: unknown }).data
  }
}

export const userRejected = () =>
  new WalletRpcError(UserRejectedRequestError.code, 'User rejected the request.')
export const unauthorized = () =>
  new WalletRpcError(
    UnauthorizedProviderError.code,
    'The requested account has not been authorized by the user.',
  )
/** 4200: a method this wallet (or the account it acts as) does not do. */
export const unsupported = (
  what: string,
  message = `The Sandbox Wallet does not support ${what}.`,
) => new WalletRpcError(UnsupportedProviderMethodError.code, message)
export const invalidRequest = () =>
  new WalletRpcError(InvalidRequestRpcError.code, 'Invalid request.')
export const invalidParams = (why: string) => new WalletRpcError(InvalidParamsRpcError.code, why)
export const unknownChain = (chainId: string) =>
  new WalletRpcError(SwitchChainError.code, `Unrecognized chain ID "${chainId}". Add it first.`)
export const noRpc = (chainId: string) =>
  new WalletRpcError(ChainDisconnectedError.code, `No RPC for chain ${chainId}.`)
export const unreachable = () =>
  new WalletRpcError(ProviderDisconnectedError.code, 'The wallet cannot reach the chain.')
export const unknownBundle = () =>
  new WalletRpcError(UnknownBundleIdError.code, 'Unknown bundle id.')
export const bundleTooLarge = () =>
  new WalletRpcError(BundleTooLargeError.code, 'One call at a time, please.')

type Coded = {
  code?: unknown
  message?: unknown
  details?: unknown
  data?: unknown
  cause?: unknown
}

/**
 * What the chain answered, as the page would have received it from the node: the innermost
 * error with a JSON-RPC code under viem's wrappers (an RPC error body, or what an in-page chain
 * threw), its message and data. A request that never reached the chain is 4900.
 */
export function fromChain(error: unknown): WalletRpcError {
  if (error instanceof WalletRpcError) return error
  let found: Coded | undefined
  for (let e = error as Coded | undefined; e && typeof e === 'object'; e = e.cause as Coded) {
    if (typeof e.code === 'number' && e.code !== -1) found = e
  }
  if (!found) {
    const name = (error as { name?: string })?.name
    return name === 'HttpRequestError'
      ? unreachable()
      : new WalletRpcError(InternalRpcError.code, String((error as Error)?.message ?? error))
  }
  const message = typeof found.details === 'string' ? found.details : String(found.message ?? '')
  return new WalletRpcError(found.code as number, message, found.data)
}
