import { getConnection, reconnect } from '@wagmi/core'
import { connectWallet } from '../actions/connectWallet.js'
import { disconnectWallet } from '../actions/disconnectWallet.js'
import { getStablecoinBalances } from '../actions/getStablecoinBalances.js'
import { PaySessionError } from '../errors/base.js'
import { asError, type CheckoutHandle } from './handle.js'
import { pathFlags } from './paths/index.js'

// The customer's choice of wallet and token: connecting, the connected wallet's balances of the
// session's stablecoins, the token preferred, and which paths each token offers (the state's
// path flags).

/** The state's flags of the paths the token `symbol` offers (`gasless`). */
export const flagsOf = (handle: CheckoutHandle, symbol: string | undefined) =>
  pathFlags(handle.offer(symbol))

/** The connected wallet's balances: the token choice, or the review when there is nothing to choose. */
export async function loadTokens(handle: CheckoutHandle) {
  const assets = handle.assets()
  const { config } = handle.session
  const connection = getConnection(config.wagmiConfig)
  if (connection.status !== 'connected' || !assets) return handle.dispatch({ type: 'walletNeeded' })
  const state = handle.session.getState()
  const { tokens, gasWarning } = await getStablecoinBalances(config, {
    network: assets.network,
    tokens: assets.tokens,
    account: connection.address,
    amount: state.session?.amount,
    locale: handle.settings.locale,
  })
  const preferred =
    tokens.find((t) => t.symbol === state.selectedToken && t.sufficient) ??
    tokens.find((t) => t.symbol === state.session?.tokenSymbol && t.sufficient) ??
    tokens.find((t) => t.sufficient)
  // A session that accepts one token has nothing to choose: straight to review when it can pay.
  return handle.dispatch(
    { type: 'tokensLoaded', direct: tokens.length === 1 && !!preferred },
    {
      account: connection.address,
      chainId: connection.chainId,
      tokens: tokens.map(
        ({ symbol, address, decimals, balance, formattedBalance, sufficient }) => ({
          symbol,
          address,
          decimals,
          balance,
          formattedBalance,
          sufficient,
          ...flagsOf(handle, symbol),
        }),
      ),
      selectedToken: preferred?.symbol,
      ...flagsOf(handle, preferred?.symbol),
      gasWarning,
      error: undefined,
      canRetry: false,
    },
  )
}

/** The customer picks a token: to the review if the balance covers the amount. */
export function selectToken(handle: CheckoutHandle, symbol: string): void {
  if (!handle.allows({ type: 'selectToken', sufficient: true })) return
  const token = handle.session.getState().tokens.find((t) => t.symbol === symbol.toUpperCase())
  if (!token) {
    handle.set({ error: new PaySessionError('UNSUPPORTED_TOKEN', { details: symbol }) })
    return
  }
  if (!token.sufficient) {
    handle.dispatch(
      { type: 'selectToken', sufficient: false },
      {
        selectedToken: token.symbol,
        error: new PaySessionError('INSUFFICIENT_BALANCE'),
        canRetry: false,
      },
    )
    return
  }
  handle.dispatch(
    { type: 'selectToken', sufficient: true },
    {
      selectedToken: token.symbol,
      ...flagsOf(handle, token.symbol),
      error: undefined,
      canRetry: false,
    },
  )
}

/** Nothing in flight: the wallet choice, or the token choice for a connected wallet. */
export async function offerPayment(handle: CheckoutHandle): Promise<void> {
  const wagmi = handle.session.config.wagmiConfig
  if (getConnection(wagmi).status === 'disconnected') await reconnect(wagmi).catch(() => {})
  if (getConnection(wagmi).status === 'connected') await loadTokens(handle)
  else handle.dispatch({ type: 'walletNeeded' })
}

export async function connect(handle: CheckoutHandle, walletId: string | undefined) {
  if (!handle.dispatch({ type: 'connect', walletId }, { error: undefined, canRetry: false })) return
  try {
    await connectWallet(handle.session.config, { walletId })
    await loadTokens(handle)
  } catch (error) {
    const failed = asError(error)
    // The page's registry does not match the chain: no wallet can pay this checkout.
    if (failed.code === 'INVALID_CONFIG') return handle.session.fail(failed, false)
    handle.dispatch({ type: 'connectFailed' }, { error: failed, canRetry: true })
  }
}

export async function disconnect(handle: CheckoutHandle): Promise<void> {
  if (!handle.allows({ type: 'disconnect' })) return
  await disconnectWallet(handle.session.config).catch(() => {})
  handle.dispatch(
    { type: 'disconnect' },
    {
      account: undefined,
      chainId: undefined,
      tokens: [],
      selectedToken: undefined,
      gasWarning: false,
      error: undefined,
    },
  )
}
