import { walk } from '@paysession/protocol'
import { PaySessionError, type PaySessionErrorCode } from './base.js'

type ErrorLike = { name?: string; code?: number; cause?: unknown; shortMessage?: string }

const has = (error: unknown, match: (e: ErrorLike) => boolean) =>
  walk(error, (e) => !!e && match(e as ErrorLike)) !== null

/** The codes a wallet's refusal or failure maps to (`walletError`). */
export type WalletErrorCode =
  | 'WALLET_ERROR'
  | 'USER_REJECTED'
  | 'WRONG_NETWORK'
  | 'WALLET_NOT_FOUND'
  | 'WALLET_NOT_CONNECTED'

/** Maps a wagmi/viem/EIP-1193 error to a PaySessionError, keeping the original as `cause`. */
export function walletError(error: unknown, fallback: PaySessionErrorCode = 'WALLET_ERROR') {
  if (error instanceof PaySessionError) return error
  let code: PaySessionErrorCode = fallback
  if (has(error, (e) => e.code === 4001 || e.name === 'UserRejectedRequestError'))
    code = 'USER_REJECTED'
  else if (
    has(error, (e) =>
      [
        'ChainMismatchError',
        'ConnectorChainMismatchError',
        'SwitchChainNotSupportedError',
        'ChainNotConfiguredError',
      ].includes(e.name ?? ''),
    )
  )
    code = 'WRONG_NETWORK'
  else if (has(error, (e) => e.name === 'ProviderNotFoundError')) code = 'WALLET_NOT_FOUND'
  else if (
    has(error, (e) =>
      ['ConnectorNotConnectedError', 'ConnectorAccountNotFoundError'].includes(e.name ?? ''),
    )
  )
    code = 'WALLET_NOT_CONNECTED'
  const details = (error as ErrorLike)?.shortMessage ?? (error as Error)?.message
  return new PaySessionError(code, { details, cause: error })
}
