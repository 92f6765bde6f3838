import { getConnection, reconnect, watchConnection } from '@wagmi/core'
import type { Hex } from 'viem'
import { checkPreviousPayment } from '../actions/checkPreviousPayment.js'
import { connectWallet } from '../actions/connectWallet.js'
import { disconnectWallet } from '../actions/disconnectWallet.js'
import { getSession } from '../actions/getSession.js'
import { getStablecoinBalances } from '../actions/getStablecoinBalances.js'
import { getWallets, watchWallets } from '../actions/getWallets.js'
import { payWithWallet } from '../actions/payWithWallet.js'
import { reportFunding } from '../actions/reportFunding.js'
import { sessionQueryKey, watchSession } from '../actions/watchSession.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isPaySessionError, PaySessionError } from '../errors/base.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { checkExpectedPayment, type ExpectedPayment } from '../utils/expectedPayment.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import { clearPaymentRecord, readPaymentRecord } from '../utils/paymentRecord.js'
import { writeSessionFacts } from '../utils/sessionFacts.js'
import { isSettled } from '../utils/status.js'
import type { RunningCheckout } from './recovery.js'
import {
  type CheckoutEvent,
  initialMachine,
  isInFlight,
  retryAction,
  statusStep,
  transition,
} from './transition.js'
import type { Checkout, CheckoutListener, CheckoutState } from './types.js'

export type CreateCheckoutParameters = {
  sessionId: string
  sessionToken: string
  /**
   * Asked for a fresh session token when the service refuses the current one (expired or not
   * valid), e.g. from your server. Resolve to undefined when there is none: the checkout then
   * follows the payment on chain. An expired token never shows as an expired payment.
   */
  getSessionToken?: (() => Promise<string | undefined> | string | undefined) | undefined
  /** Locale for formatted balances. */
  locale?: string | undefined
  /** See `checkPreviousPayment`. */
  staleAfter?: number | undefined
  /**
   * The merchant's relay for payments without network fees (EIP-3009). With it, a token that
   * supports EIP-3009 can be paid by signing: `pay({ gasless: true })`.
   */
  relayUrl?: string | undefined
} & ExpectedPayment

/**
 * The checkout state machine a UI renders: loading → chooseWallet → connecting → chooseToken →
 * review → confirmInWallet → submitted → confirming → waitingForService → paid → completed, plus
 * expired, failed, manual and untracked. Which step follows which event is `transition`
 * (./transition.ts); this function runs the effects around it (wallet prompts, requests, timers)
 * and changes the step only through it. Subscribe for state; call the methods on user actions.
 * @example
 * const checkout = createCheckout(config, { sessionId, sessionToken })
 * checkout.subscribe((state) => render(state))
 */
export function createCheckout(
  config: PaySessionConfig,
  parameters: CreateCheckoutParameters,
): Checkout {
  const { sessionId, getSessionToken, locale, staleAfter, relayUrl } = parameters
  let sessionToken = parameters.sessionToken
  const { expectedAmount, expectedCurrency } = parameters
  const expected = { expectedAmount, expectedCurrency }
  const wagmi = config.wagmiConfig
  const listeners = new Set<CheckoutListener>()
  let state: CheckoutState = {
    step: 'loading',
    wallets: getWallets(config),
    tokens: [],
    gasWarning: false,
    gasless: false,
    canRetry: false,
  }
  let destroyed = false
  let lastGasless = false
  let busy = false // one pay/load at a time: a double click does nothing
  let machine = initialMachine
  let lastWalletId: string | undefined
  let assets: { network: NetworkInfo; tokens: StablecoinInfo[] } | undefined
  let stopWatching: (() => void) | undefined
  const following = new AbortController() // stops following a hash when destroyed

  // A listener may call back into the controller: its change is delivered after the current
  // round, so every listener sees the states in order and ends on the latest.
  let notifying = false
  let pending = false
  const publish = (patch: Partial<CheckoutState>) => {
    if (destroyed) return
    state = { ...state, ...patch }
    if (notifying) {
      pending = true
      return
    }
    notifying = true
    try {
      do {
        pending = false
        const snapshot = state
        for (const listener of listeners) listener(snapshot)
      } while (pending)
    } finally {
      notifying = false
    }
  }
  /** Everything but the step, which changes only through `dispatch`. */
  const set = (patch: Partial<Omit<CheckoutState, 'step'>>) => publish(patch)
  /**
   * The one way the step changes: the event through `transition`, with what else it brings.
   * An event the machine refuses changes nothing. Returns whether it was taken.
   */
  const dispatch = (event: CheckoutEvent, patch: Partial<Omit<CheckoutState, 'step'>> = {}) => {
    const next = transition(machine, event)
    if (next === machine) return false
    machine = next
    if (next.step !== state.step || Object.keys(patch).length)
      publish({ ...patch, step: next.step })
    return true
  }
  /** Whether the machine would take the event now (checked before an effect that precedes it). */
  const allows = (event: CheckoutEvent) => transition(machine, event) !== machine
  const settled = () => machine.settled
  const gasless = (symbol: string | undefined) =>
    !!relayUrl && !!assets?.tokens.some((t) => t.symbol === symbol && t.eip3009)
  const explorerTxUrl = (hash: Hex) =>
    assets?.network.explorerUrl ? `${assets.network.explorerUrl}/tx/${hash}` : undefined
  const asError = (error: unknown) =>
    error instanceof PaySessionError ? error : new PaySessionError('WALLET_ERROR', { cause: error })
  /**
   * An error that ends this attempt: an expired session ends the checkout for good; a refused
   * token only ends what the service tells this page (see `untrack` in ./recovery.ts).
   */
  const fail = (error: PaySessionError, canRetry: boolean) => {
    if (isTokenRefused(error)) return recover((paths) => paths.untrack(running, error), error)
    const expired = error.code === 'SESSION_EXPIRED'
    dispatch({ type: 'fail', expired }, { error, canRetry: !expired && canRetry })
  }

  // Resuming a payment left in flight and a refused token (./recovery.ts), in the lazy chunk:
  // loaded when taken. A chunk that cannot load ends the attempt with `error`; retry loads again.
  const lazy = () => import('../actions/lazyActions.js')
  const recover = (
    path: (paths: Awaited<ReturnType<typeof lazy>>) => unknown,
    error: PaySessionError,
  ) =>
    void lazy().then(path, () =>
      dispatch({ type: 'fail', expired: false }, { error, canRetry: true }),
    )
  const running: RunningCheckout = {
    config,
    sessionId,
    staleAfter,
    canRenewToken: !!getSessionToken,
    signal: following.signal,
    state: () => state,
    destroyed: () => destroyed,
    settled,
    dispatch,
    set,
    subscribe,
    sessionToken: () => sessionToken,
    withToken,
    network: () => assets!.network,
    explorerTxUrl,
    askServiceToSettle,
    offerPayment,
    fail,
    asError,
    stopWatching() {
      stopWatching?.()
      stopWatching = undefined
    },
  }

  let renewing: Promise<string | undefined> | undefined
  /** A fresh token from the page (one request at a time), or undefined when it has none. */
  function renewToken(refused: string): Promise<string | undefined> {
    if (sessionToken !== refused) return Promise.resolve(sessionToken)
    renewing ??= Promise.resolve()
      .then(getSessionToken)
      .then(
        (token) => {
          if (typeof token !== 'string' || !token || token === refused) return undefined
          sessionToken = token
          return token
        },
        () => undefined,
      )
      .finally(() => {
        renewing = undefined
      })
    return renewing
  }

  /** A service call with the current token, and once more with a fresh one if it is refused. */
  async function withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = sessionToken
    try {
      return await call(token)
    } catch (error) {
      if (!isTokenRefused(error)) throw error
      const fresh = await renewToken(token)
      if (!fresh) throw error
      return call(fresh)
    }
  }

  function subscribe(listener: CheckoutListener) {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }

  function onSession(session: PaymentSession) {
    writeSessionFacts(config.storage, session)
    set({ session, amount: session.amount })
    const step = statusStep(session.status)
    if (!step) return
    if (isSettled(session)) clearPaymentRecord(config.storage, sessionId)
    const code =
      step === 'expired' ? 'SESSION_EXPIRED' : step === 'failed' ? 'SESSION_FAILED' : undefined
    // Paid: show the transaction the service saw fund the session, which is the replacement when
    // the wallet sped the transfer up, even if the service says so before the receipt wait does.
    const funding = session.fundingTransactionHash
    const funded =
      (step === 'paid' || step === 'completed') && isTransactionHash(funding)
        ? { hash: funding, explorerTxUrl: explorerTxUrl(funding) }
        : {}
    dispatch(
      { type: 'session', status: session.status },
      { error: code && new PaySessionError(code), canRetry: false, ...funded },
    )
  }

  function watch() {
    if (stopWatching) return
    const token = sessionToken
    // A query a stopped watcher left in error would stop the new watcher at its first result.
    config.queryClient.removeQueries({
      queryKey: sessionQueryKey(sessionId),
      predicate: (query) => query.state.status === 'error',
    })
    stopWatching = watchSession(config, {
      sessionId,
      sessionToken: token,
      // Manual payment polls as fast: the customer's transfer can arrive any moment.
      isActive: () => busy || isInFlight(state.step) || state.step === 'manual',
      onChange: onSession,
      onError: (error, final) => {
        if (!final || settled()) return
        stopWatching = undefined
        dispatch({ type: 'retryByLoading' })
        if (!isTokenRefused(error)) return fail(error, true)
        void renewToken(token).then((fresh) => {
          if (destroyed || settled()) return
          if (fresh) watch()
          else recover((paths) => paths.untrack(running, error), error)
        })
      },
    })
  }

  async function load() {
    dispatch({ type: 'load' }, { error: undefined, canRetry: false })
    try {
      const session = await withToken((token) =>
        getSession(config, { sessionId, sessionToken: token }),
      )
      onSession(session)
      if (settled()) return
      // A session for another order is refused before anything is offered, manual payment too.
      checkExpectedPayment(session, expected)
      assets = resolveSessionAssets(config.registry, session)
      set({ network: assets.network })
      watch()
      const previous = await checkPreviousPayment(config, { session, staleAfter })
      if (settled()) return
      if (previous.kind !== 'none') return (await lazy()).resume(running, previous)
      dispatch({ type: 'nothingPending' })
      await offerPayment()
    } catch (error) {
      if (settled()) return
      fail(asError(error), isRetryable(error))
    }
  }

  /** Nothing in flight: the wallet choice, or the token choice for a connected wallet. */
  async function offerPayment() {
    if (getConnection(wagmi).status === 'disconnected') await reconnect(wagmi).catch(() => {})
    if (getConnection(wagmi).status === 'connected') await loadTokens()
    else dispatch({ type: 'walletNeeded' })
  }

  /**
   * The transfer is mined: report it once more with the spec's `wait` (idempotent), so the
   * service processes it now, then read the session at once rather than at the next poll. A
   * service that ignores `wait`, or fails, leaves it to polling.
   */
  async function askServiceToSettle(hash: Hex) {
    await withToken((token) =>
      reportFunding(config, { sessionId, sessionToken: token, hash, wait: true }),
    ).catch(() => {})
    if (!destroyed)
      void config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) })
  }

  async function loadTokens() {
    const connection = getConnection(wagmi)
    if (connection.status !== 'connected' || !assets) return dispatch({ type: 'walletNeeded' })
    const { tokens, gasWarning } = await getStablecoinBalances(config, {
      network: assets.network,
      tokens: assets.tokens,
      account: connection.address,
      amount: state.session?.amount,
      locale,
    })
    const preferred =
      tokens.find((t) => t.symbol === state.selectedToken && t.sufficient) ??
      tokens.find((t) => t.symbol === state.session?.tokenSymbol && t.sufficient) ??
      tokens.find((t) => t.sufficient)
    // A session that accepts one token has nothing to choose: straight to review when it can pay.
    dispatch(
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
            gasless: gasless(symbol),
          }),
        ),
        selectedToken: preferred?.symbol,
        gasless: gasless(preferred?.symbol),
        gasWarning,
        error: undefined,
        canRetry: false,
      },
    )
  }

  async function connect(walletId?: string) {
    if (!dispatch({ type: 'connect' }, { error: undefined, canRetry: false })) return
    lastWalletId = walletId
    try {
      await connectWallet(config, { walletId })
      await loadTokens()
    } catch (error) {
      dispatch({ type: 'connectFailed' }, { error: asError(error), canRetry: true })
    }
  }

  async function disconnect() {
    if (busy || !allows({ type: 'disconnect' })) return
    await disconnectWallet(config).catch(() => {})
    dispatch(
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

  function selectToken(symbol: string) {
    if (!allows({ type: 'selectToken', sufficient: true })) return
    const token = state.tokens.find((t) => t.symbol === symbol.toUpperCase())
    if (!token) return set({ error: new PaySessionError('UNSUPPORTED_TOKEN', { details: symbol }) })
    if (!token.sufficient)
      return dispatch(
        { type: 'selectToken', sufficient: false },
        {
          selectedToken: token.symbol,
          error: new PaySessionError('INSUFFICIENT_BALANCE'),
          canRetry: false,
        },
      )
    dispatch(
      { type: 'selectToken', sufficient: true },
      {
        selectedToken: token.symbol,
        gasless: gasless(token.symbol),
        error: undefined,
        canRetry: false,
      },
    )
  }

  async function pay(options: { gasless?: boolean } = {}) {
    const gaslessNow = !!options.gasless && state.gasless
    if (busy || !state.selectedToken) return
    // Which steps allow paying is the transition's answer (`canPay`), nowhere else.
    if (!dispatch({ type: 'pay' }, { error: undefined, canRetry: false })) return
    busy = true
    lastGasless = gaslessNow
    try {
      // Never twice: the freshest status and the chain decide before any prompt opens.
      const session = await withToken((token) =>
        getSession(config, { sessionId, sessionToken: token }),
      )
      onSession(session)
      if (settled()) return
      const previous = await checkPreviousPayment(config, { session, staleAfter })
      if (previous.kind !== 'none') return (await lazy()).resume(running, previous)
      // The gasless path's code loads only when a customer takes it.
      const action = lastGasless ? (await lazy()).payWithAuthorization : payWithWallet
      const paid = await action(config, {
        session,
        sessionToken,
        relayUrl: relayUrl!,
        token: state.selectedToken,
        ...expected,
        signal: following.signal,
        onAwaitingWallet: () => {
          dispatch({ type: 'walletAccepted' })
        },
        onHash: (hash) => {
          dispatch({ type: 'hash' }, { hash, explorerTxUrl: explorerTxUrl(hash) })
        },
        onReported: () => {
          dispatch({ type: 'reported' })
          void config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) })
        },
      })
      dispatch({ type: 'mined' })
      void askServiceToSettle(paid.hash)
    } catch (error) {
      if (!settled()) onPayError(asError(error))
    } finally {
      busy = false
    }
  }

  function onPayError(error: PaySessionError) {
    if (error.code === 'SESSION_EXPIRED' || isTokenRefused(error)) return fail(error, false)
    if (error.code === 'PAYMENT_IN_PROGRESS')
      // Another tab recorded its prompt between our check and our record.
      return recover(
        (paths) => paths.waitForPrompt(running, readPaymentRecord(config.storage, sessionId)),
        error,
      )
    // The record written before the prompt says whether anything may have left.
    const recorded = !!readPaymentRecord(config.storage, sessionId)
    const canRetry = error.code !== 'INSUFFICIENT_BALANCE' && error.code !== 'WALLET_NOT_CONNECTED'
    dispatch(
      { type: 'payFailed', code: error.code, recorded, hash: !!state.hash },
      { error, canRetry },
    )
    if (error.code === 'INSUFFICIENT_BALANCE')
      void loadTokens().then(
        () => set({ error }),
        () => {},
      )
  }

  function payManually() {
    if (busy || !dispatch({ type: 'manual' }, { error: undefined, canRetry: false })) return
    void config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) })
  }

  async function retry() {
    if (!state.canRetry || busy) return
    const action = retryAction(machine)
    if (action === 'connect') return connect(lastWalletId)
    if (action === 'pay') {
      dispatch({ type: 'retry' }, { error: undefined, canRetry: false })
      return pay({ gasless: lastGasless })
    }
    stopWatching?.()
    stopWatching = undefined
    return load()
  }

  const stopConnection = watchConnection(wagmi, {
    onChange(connection, previous) {
      if (destroyed || busy || !allows({ type: 'walletDisconnected' })) return
      if (connection.status === 'disconnected')
        dispatch({ type: 'walletDisconnected' }, { account: undefined, tokens: [] })
      else if (connection.address !== previous.address || connection.chainId !== previous.chainId)
        void loadTokens().catch((error) => set({ error: asError(error) }))
    },
  })
  const stopWallets = watchWallets(config, (wallets) => set({ wallets }))
  void load()

  return {
    getState: () => state,
    subscribe,
    connect,
    disconnect,
    selectToken,
    pay,
    payManually,
    retry,
    destroy() {
      destroyed = true
      following.abort()
      stopWatching?.()
      stopConnection()
      stopWallets()
      listeners.clear()
    },
  }
}

/** The service refused the session token: expired, or not (or no longer) valid. */
const isTokenRefused = (error: unknown): boolean =>
  isPaySessionError(error, 'SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED')

function isRetryable(error: unknown) {
  return (
    !(error instanceof PaySessionError) ||
    ['API_UNAVAILABLE', 'INVALID_RESPONSE', 'CHAIN_UNAVAILABLE', 'WALLET_ERROR'].includes(
      error.code,
    )
  )
}
