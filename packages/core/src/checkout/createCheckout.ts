import { getClient, getConnection, reconnect, watchConnection } from '@wagmi/core'
import type { Hex } from 'viem'
import {
  checkPreviousPayment,
  defaultStaleAfter,
  type PreviousPayment,
} from '../actions/checkPreviousPayment.js'
import { connectWallet } from '../actions/connectWallet.js'
import { disconnectWallet } from '../actions/disconnectWallet.js'
import { getSession } from '../actions/getSession.js'
import { getStablecoinBalances } from '../actions/getStablecoinBalances.js'
import { getWallets, watchWallets } from '../actions/getWallets.js'
import { payWithWallet } from '../actions/payWithWallet.js'
import { reportFunding } from '../actions/reportFunding.js'
import { sessionQueryKey, watchSession } from '../actions/watchSession.js'
import type { PaymentSession } from '../api/session.js'
import { waitForPaymentReceipt, waitForTransfer } from '../chain/waitForPaymentReceipt.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isPaySessionError, PaySessionError } from '../errors/base.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { checkExpectedPayment, type ExpectedPayment } from '../utils/expectedPayment.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { readSessionFacts, type SessionFacts, writeSessionFacts } from '../utils/sessionFacts.js'
import { sleep } from '../utils/sleep.js'
import { isSettled } from '../utils/status.js'
import type { Checkout, CheckoutListener, CheckoutState, CheckoutStep } from './types.js'

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

const statusSteps: Partial<Record<PaymentSession['status'], CheckoutStep>> = {
  FUNDED: 'paid',
  CAPTURING: 'paid',
  SUCCEEDED: 'completed',
  CANCELED: 'expired',
  ERROR: 'failed',
}
const inFlightSteps: CheckoutStep[] = [
  'confirmInWallet',
  'waitingForWallet',
  'submitted',
  'confirming',
  'waitingForService',
  'manual',
]

/**
 * The checkout state machine a UI renders: loading → chooseWallet → connecting → chooseToken →
 * review → confirmInWallet → submitted → confirming → waitingForService → paid → completed, plus
 * expired, failed, manual and untracked. Subscribe for state; call the methods on user actions.
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
  let lastAction: 'load' | 'connect' | 'pay' = 'load'
  let lastWalletId: string | undefined
  let assets: { network: NetworkInfo; tokens: StablecoinInfo[] } | undefined
  let stopWatching: (() => void) | undefined
  const following = new AbortController() // stops following a hash when destroyed

  // A listener may call back into the controller: its change is delivered after the current
  // round, so every listener sees the states in order and ends on the latest.
  let notifying = false
  let pending = false
  const set = (patch: Partial<CheckoutState>) => {
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
  const settled = () =>
    ['paid', 'completed', 'expired'].includes(state.step) ||
    (state.step === 'failed' && state.session?.status === 'ERROR')
  const gasless = (symbol: string | undefined) =>
    !!relayUrl && !!assets?.tokens.some((t) => t.symbol === symbol && t.eip3009)
  const explorerTxUrl = (hash: Hex) =>
    assets?.network.explorerUrl ? `${assets.network.explorerUrl}/tx/${hash}` : undefined
  const asError = (error: unknown) =>
    error instanceof PaySessionError ? error : new PaySessionError('WALLET_ERROR', { cause: error })
  /**
   * An error that ends this attempt: an expired session ends the checkout for good; a refused
   * token only ends what the service tells this page (see `untrack`).
   */
  const fail = (error: PaySessionError, canRetry: boolean) => {
    if (error.code === 'SESSION_EXPIRED') return set({ step: 'expired', error, canRetry: false })
    if (isTokenRefused(error)) return untrack(error)
    set({ step: 'failed', error, canRetry })
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

  /**
   * The service refuses this page's token and no fresh one came: this page can no longer follow
   * the session there. It says so (never "expired": the session may well be payable or paid),
   * and reads the one-time wallet on chain until it holds the amount or the funding window ends.
   * A token refused before anything was known is a link that is not valid.
   */
  function untrack(error: PaySessionError) {
    stopWatching?.()
    stopWatching = undefined
    lastAction = 'load'
    const facts = state.session ?? readSessionFacts(config.storage, sessionId)
    if (!facts && error.code !== 'SESSION_TOKEN_EXPIRED')
      return set({ step: 'failed', error, canRetry: !!getSessionToken })
    // A customer paying by hand keeps the address; the chain is followed behind it.
    if (state.step !== 'manual')
      set({ step: 'untracked', error, canRetry: !!getSessionToken, amount: facts?.amount })
    if (facts) void followOnChain(facts)
  }

  let chainFollower: AbortController | undefined
  async function followOnChain(facts: SessionFacts) {
    if (chainFollower) return
    const follower = new AbortController()
    chainFollower = follower
    const stop = () => follower.abort()
    following.signal.addEventListener('abort', stop)
    const stopWhenLeft = subscribe((next) => {
      if (next.step !== 'untracked' && next.step !== 'manual') stop()
    })
    try {
      // Loaded only when a token is refused: most checkouts never need it.
      const { waitForOneTimeWalletFunding } = await import('../actions/lazyActions.js')
      const result = await waitForOneTimeWalletFunding(config, {
        session: facts,
        signal: follower.signal,
      })
      // The paid screen names the token that arrived, as the service will once it sees it.
      if (result.outcome === 'received')
        set({
          step: 'paid',
          error: undefined,
          canRetry: false,
          session: state.session && { ...state.session, tokenSymbol: result.token },
        })
      // Unfunded when the window closes: the spec cancels the session then.
      if (result.outcome === 'windowClosed')
        set({ step: 'expired', error: new PaySessionError('SESSION_EXPIRED'), canRetry: false })
    } finally {
      stopWhenLeft()
      following.signal.removeEventListener('abort', stop)
      chainFollower = undefined
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
    const step = statusSteps[session.status]
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
    set({ step, error: code && new PaySessionError(code), canRetry: false, ...funded })
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
      isActive: () => busy || inFlightSteps.includes(state.step),
      onChange: onSession,
      onError: (error, final) => {
        if (!final || settled()) return
        stopWatching = undefined
        lastAction = 'load'
        if (!isTokenRefused(error)) return fail(error, true)
        void renewToken(token).then((fresh) => {
          if (destroyed || settled()) return
          if (fresh) watch()
          else untrack(error)
        })
      },
    })
  }

  async function load() {
    lastAction = 'load'
    set({ step: 'loading', error: undefined, canRetry: false })
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
      if (previous.kind !== 'none') return resume(previous)
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
    else set({ step: 'chooseWallet' })
  }

  function resume(previous: PreviousPayment): Promise<void> | void {
    if (previous.kind !== 'inFlight') return
    if (previous.reason === 'walletPending') return awaitWallet(previous.record!)
    const hash = previous.hash
    if (hash) set({ hash, explorerTxUrl: explorerTxUrl(hash) })
    if (previous.reason === 'prompting') return waitForPrompt(previous.record)
    set({
      step: previous.reason === 'hashPending' ? 'confirming' : 'waitingForService',
      error: undefined,
      canRetry: false,
      retryAt: undefined,
    })
    if (hash) {
      // Idempotent: the service may not have heard of it if the page closed right after sending.
      withToken((token) => reportFunding(config, { sessionId, sessionToken: token, hash })).catch(
        () => {},
      )
      if (previous.reason === 'hashPending') void followHash(hash, previous.record)
    }
  }

  /** The wallet accepted the payment and will send it (a multisig, a bundler): follow the chain. */
  function awaitWallet(record: PaymentRecord) {
    set({ step: 'waitingForWallet', error: undefined, canRetry: false })
    const client = getClient(wagmi, { chainId: assets!.network.chainId })!
    waitForTransfer(client, {
      payment: {
        token: record.tokenAddress,
        from: record.from,
        to: record.to,
        fromBlock: BigInt(record.fromBlock),
      },
      pollingInterval: client.pollingInterval,
      signal: following.signal,
    }).then(
      (hash) => {
        record = { ...record, state: 'submitted', hash }
        writePaymentRecord(config.storage, record)
        if (!settled()) resume({ kind: 'inFlight', reason: 'hashPending', hash, record })
      },
      () => {},
    )
  }

  /**
   * A wallet prompt this checkout opened (before a reload, or in another tab) may still be
   * answered: a second payment must wait. Not an error: the page says so and when the customer
   * can pay again (`retryAt`), watches the service (polling) and the chain (the recorded payer's
   * transfer), and offers the payment again by itself when the time comes.
   */
  async function waitForPrompt(record: PaymentRecord | undefined): Promise<void> {
    const retryAt = (record?.createdAt ?? Date.now()) + (staleAfter ?? defaultStaleAfter)
    lastAction = 'load'
    set({ step: 'waitingForService', error: undefined, canRetry: false, retryAt })
    const waiting = () => !destroyed && !settled() && state.retryAt === retryAt
    while (waiting()) {
      const wait = Math.min(config.polling.activeInterval, retryAt - Date.now())
      await sleep(Math.max(0, wait), following.signal)
      const session = state.session
      if (!waiting() || !session) return
      const previous = await checkPreviousPayment(config, { session, staleAfter }).catch(
        () => undefined,
      )
      if (!waiting() || !previous) continue
      if (previous.kind === 'inFlight' && previous.reason === 'prompting') continue
      if (previous.kind !== 'none') {
        set({ retryAt: undefined })
        return resume(previous)
      }
      // Out of the in-flight step first: the token choice is not shown over a payment in flight.
      set({ step: 'loading', retryAt: undefined })
      return offerPayment().catch((error) => fail(asError(error), true))
    }
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

  async function followHash(hash: Hex, record: PaymentRecord | undefined) {
    try {
      const client = getClient(wagmi, { chainId: assets!.network.chainId })!
      const receipt = await waitForPaymentReceipt(client, {
        hash,
        // Our own payment (not one the service heard of from elsewhere): follow a replacement.
        payment:
          record?.hash === hash
            ? {
                token: record.tokenAddress,
                from: record.from,
                to: record.to,
                fromBlock: BigInt(record.fromBlock),
              }
            : undefined,
        confirmations: config.confirmations,
        pollingInterval: client.pollingInterval,
        signal: following.signal,
        onReplaced: (next) => {
          if (record)
            writePaymentRecord(config.storage, { ...record, state: 'submitted', hash: next })
          set({ hash: next, explorerTxUrl: explorerTxUrl(next) })
          reportFunding(config, { sessionId, sessionToken, hash: next }).catch(() => {})
        },
      })
      if (settled()) return
      if (receipt.status === 'success') {
        set({ step: 'waitingForService' })
        void askServiceToSettle(receipt.transactionHash)
      } else {
        clearPaymentRecord(config.storage, sessionId)
        set({ step: 'failed', error: new PaySessionError('TRANSACTION_FAILED'), canRetry: true })
        lastAction = 'load'
      }
    } catch (error) {
      if (destroyed || settled()) return
      if (isPaySessionError(error, 'TRANSFER_MISMATCH')) {
        // Replaced by a transaction that pays nothing: the chain allows a new payment.
        clearPaymentRecord(config.storage, sessionId)
        set({ step: 'failed', error, canRetry: true })
      } else
        set({
          error: new PaySessionError('CHAIN_UNAVAILABLE', {
            details: `waiting for ${hash}`,
            cause: error,
          }),
          canRetry: true,
        })
      lastAction = 'load'
    }
  }

  async function loadTokens() {
    const connection = getConnection(wagmi)
    if (connection.status !== 'connected' || !assets) return set({ step: 'chooseWallet' })
    const { tokens, gasWarning } = await getStablecoinBalances(config, {
      network: assets.network,
      tokens: assets.tokens,
      account: connection.address,
      amount: state.session?.amount,
      locale,
    })
    if (settled() || inFlightSteps.includes(state.step)) return
    const preferred =
      tokens.find((t) => t.symbol === state.selectedToken && t.sufficient) ??
      tokens.find((t) => t.symbol === state.session?.tokenSymbol && t.sufficient) ??
      tokens.find((t) => t.sufficient)
    // A session that accepts one token has nothing to choose: straight to review when it can pay.
    set({
      step: tokens.length === 1 && preferred ? 'review' : 'chooseToken',
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
        }),
      ),
      selectedToken: preferred?.symbol,
      gasless: gasless(preferred?.symbol),
      gasWarning,
      error: undefined,
      canRetry: false,
    })
  }

  async function connect(walletId?: string) {
    if (
      !['chooseWallet', 'chooseToken', 'review', 'manual'].includes(state.step) &&
      !(state.step === 'failed' && lastAction === 'connect')
    )
      return
    lastAction = 'connect'
    lastWalletId = walletId
    set({ step: 'connecting', error: undefined, canRetry: false })
    try {
      await connectWallet(config, { walletId })
      await loadTokens()
    } catch (error) {
      set({ step: 'chooseWallet', error: asError(error), canRetry: true })
    }
  }

  async function disconnect() {
    if (busy || inFlightSteps.includes(state.step) || settled()) return
    await disconnectWallet(config).catch(() => {})
    set({
      step: 'chooseWallet',
      account: undefined,
      chainId: undefined,
      tokens: [],
      selectedToken: undefined,
      gasWarning: false,
      error: undefined,
    })
  }

  function selectToken(symbol: string) {
    if (state.step !== 'chooseToken' && state.step !== 'review') return
    const token = state.tokens.find((t) => t.symbol === symbol.toUpperCase())
    if (!token) return set({ error: new PaySessionError('UNSUPPORTED_TOKEN', { details: symbol }) })
    if (!token.sufficient)
      return set({
        step: 'chooseToken',
        selectedToken: token.symbol,
        error: new PaySessionError('INSUFFICIENT_BALANCE'),
        canRetry: false,
      })
    set({
      step: 'review',
      selectedToken: token.symbol,
      gasless: gasless(token.symbol),
      error: undefined,
      canRetry: false,
    })
  }

  async function pay(options: { gasless?: boolean } = {}) {
    if (busy || state.step !== 'review' || !state.selectedToken) return
    busy = true
    lastAction = 'pay'
    lastGasless = !!options.gasless && state.gasless
    set({ step: 'confirmInWallet', error: undefined, canRetry: false })
    try {
      // Never twice: the freshest status and the chain decide before any prompt opens.
      const session = await withToken((token) =>
        getSession(config, { sessionId, sessionToken: token }),
      )
      onSession(session)
      if (settled()) return
      const previous = await checkPreviousPayment(config, { session, staleAfter })
      if (previous.kind !== 'none') return resume(previous)
      // The gasless path's code loads only when a customer takes it.
      const action = lastGasless
        ? (await import('../actions/lazyActions.js')).payWithAuthorization
        : payWithWallet
      const paid = await action(config, {
        session,
        sessionToken,
        relayUrl: relayUrl!,
        token: state.selectedToken,
        ...expected,
        signal: following.signal,
        onAwaitingWallet: () => {
          if (!settled()) set({ step: 'waitingForWallet' })
        },
        onHash: (hash) => {
          if (!settled()) set({ step: 'submitted', hash, explorerTxUrl: explorerTxUrl(hash) })
        },
        onReported: () => {
          if (state.step === 'submitted') set({ step: 'confirming' })
          void config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) })
        },
      })
      if (!settled()) set({ step: 'waitingForService' })
      void askServiceToSettle(paid.hash)
    } catch (error) {
      if (!settled()) onPayError(asError(error))
    } finally {
      busy = false
    }
  }

  function onPayError(error: PaySessionError) {
    if (error.code === 'SESSION_EXPIRED' || isTokenRefused(error)) return fail(error, false)
    switch (error.code) {
      case 'USER_REJECTED':
      case 'WRONG_NETWORK':
      case 'WALLET_ERROR':
        if (!readPaymentRecord(config.storage, sessionId))
          return set({ step: 'review', error, canRetry: true })
        break
      case 'INSUFFICIENT_BALANCE':
        set({ step: 'chooseToken', error, canRetry: false })
        return void loadTokens().then(
          () => set({ error }),
          () => {},
        )
      case 'WALLET_NOT_CONNECTED':
        return set({ step: 'chooseWallet', error, canRetry: false })
      case 'PAYMENT_IN_PROGRESS':
        // Another tab recorded its prompt between our check and our record.
        return void waitForPrompt(readPaymentRecord(config.storage, sessionId))
      case 'TRANSACTION_FAILED':
      case 'TRANSFER_MISMATCH':
        return set({ step: 'failed', error, canRetry: true })
    }
    // Anything else after the prompt: the chain decides before another payment is allowed.
    lastAction = 'load'
    set({ step: state.hash ? 'confirming' : 'failed', error, canRetry: true })
  }

  function payManually() {
    if (busy || !['chooseWallet', 'chooseToken', 'review'].includes(state.step)) return
    set({ step: 'manual', error: undefined, canRetry: false })
    void config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) })
  }

  async function retry() {
    if (!state.canRetry || busy) return
    if (lastAction === 'connect') return connect(lastWalletId)
    if (lastAction === 'pay' && (state.step === 'review' || state.step === 'failed')) {
      set({ step: 'review', error: undefined, canRetry: false })
      return pay({ gasless: lastGasless })
    }
    stopWatching?.()
    stopWatching = undefined
    return load()
  }

  const stopConnection = watchConnection(wagmi, {
    onChange(connection, previous) {
      if (destroyed || busy || !['chooseToken', 'review'].includes(state.step)) return
      if (connection.status === 'disconnected')
        set({ step: 'chooseWallet', account: undefined, tokens: [] })
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
