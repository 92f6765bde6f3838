import { checkUrl } from '@paysession/protocol'
import { getConnection, reconnect, watchConnection } from '@wagmi/core'
import type { Hex } from 'viem'
import { checkPreviousPayment, type PreviousPayment } from '../actions/checkPreviousPayment.js'
import { connectWallet } from '../actions/connectWallet.js'
import { disconnectWallet } from '../actions/disconnectWallet.js'
import { getSession } from '../actions/getSession.js'
import { getStablecoinBalances } from '../actions/getStablecoinBalances.js'
import { getWallets, watchWallets } from '../actions/getWallets.js'
import type { payWithAuthorization } from '../actions/payWithAuthorization.js'
import { type PayWithWalletParameters, payWithWallet } from '../actions/payWithWallet.js'
import { preparePayment } from '../actions/preparePayment.js'
import { reportFunding } from '../actions/reportFunding.js'
import type { SendWithCalls } from '../actions/sendWithCalls.js'
import { sessionQueryKey, watchSession } from '../actions/watchSession.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isTokenRefused } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { checkExpectedPayment, type ExpectedPayment } from '../utils/expectedPayment.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  readPaymentRecord,
} from '../utils/paymentRecord.js'
import { writeSessionFacts } from '../utils/sessionFacts.js'
import { isSettled } from '../utils/status.js'
import { SessionToken, type SessionTokenProvider } from './sessionToken.js'
import { isInFlight } from './steps.js'
import {
  type CheckoutEvent,
  type CheckoutMachine,
  initialMachine,
  retryAction,
  statusStep,
  transition,
} from './transition.js'
import type { CheckoutState } from './types.js'

/** Everything the state holds but the step, which is the machine's. */
export type CheckoutFacts = Omit<CheckoutState, 'step'>

export type CheckoutListener = (state: CheckoutState) => void

/**
 * The ways to pay, by name (`pay({ path })`): each one's action, loaded from its module when a
 * customer takes it. Adding a path: its line here, its loader in `CheckoutPaths`, `EveryPath` and
 * `pathsFrom`, and its export in `checkout/everyPath.ts`.
 */
const payments = {
  /** One ERC-20 transfer from the connected wallet (`payWithWallet`). */
  wallet: async (_paths: CheckoutPaths) => payWithWallet,
  /** Signing only: an EIP-3009 authorization the merchant's relay submits (`payWithAuthorization`). */
  gasless: async (paths: CheckoutPaths) => (await paths.gasless!()).payWithAuthorization,
} satisfies Record<
  string,
  (
    paths: CheckoutPaths,
  ) => Promise<
    (
      config: PaySessionConfig,
      parameters: PayWithWalletParameters & { relayUrl: string },
    ) => ReturnType<typeof payWithWallet>
  >
>

/** A way to pay, by name: `wallet` (the default) or `gasless` (needs `relayUrl`). */
export type PaymentPath = keyof typeof payments

export type PayOptions = {
  /** The way to pay; default `wallet`. `gasless` is taken only when `state.gasless` offers it. */
  path?: PaymentPath | undefined
}

/** What a UI does with a checkout: read and subscribe to its state, act on the customer's clicks. */
export type Checkout = {
  getState(): CheckoutState
  subscribe(listener: CheckoutListener): () => void
  connect(walletId?: string): Promise<void>
  disconnect(): Promise<void>
  selectToken(symbol: string): void
  /** Pays the selected token by the chosen path (`pay({ path: 'gasless' })`). */
  pay(options?: PayOptions): Promise<void>
  payManually(): void
  retry(): Promise<void>
  destroy(): void
}

/**
 * What a path's code (`recovery.ts`) may do with the session it works on: read its state, move its
 * machine (`dispatch`), set its facts, and run its effects. The session hands it over when it runs
 * a path and keeps these private otherwise.
 */
export type CheckoutHandle = {
  /** The session itself: its state, token, polling and effects. */
  readonly session: CheckoutSession
  /** The one way the step changes: the event through `transition`. Returns whether it was taken. */
  dispatch(event: CheckoutEvent<PaymentPath>, patch?: Partial<CheckoutFacts>): boolean
  /** Everything but the step. */
  set(patch: Partial<CheckoutFacts>): void
}

/**
 * The checkout's paths off the usual payment, each a module the session loads when a customer
 * takes it: `@paysession/core/recovery` (a payment left in flight, a refused token),
 * `@paysession/core/gasless` (`pay({ path: 'gasless' })`), `@paysession/core/calls` (wallets with
 * EIP-5792 call bundles). `createCheckout` passes them all, bundled; the widget loads them lazily,
 * together (`pathsFrom`). A path that cannot load ends the attempt with an error; `retry()` loads
 * it again. Adding a path: a member here and in `EveryPath` and `pathsFrom`, its use in `pay`, and
 * its export in `checkout/everyPath.ts`.
 */
export type CheckoutPaths = {
  recovery: () => Promise<Recovery>
  gasless?: (() => Promise<{ payWithAuthorization: typeof payWithAuthorization }>) | undefined
  calls?: (() => Promise<{ sendWithCalls: SendWithCalls }>) | undefined
}

/** What a module holding every path offers (`@paysession/core/paths`). */
export type EveryPath = Recovery & { payWithAuthorization: typeof payWithAuthorization } & {
  sendWithCalls: SendWithCalls
}

/**
 * Every path from one module that holds them all, loaded once, when a customer first takes one.
 * @example const paths = pathsFrom(() => import('@paysession/core/paths'))
 */
export function pathsFrom(load: () => Promise<EveryPath>): CheckoutPaths {
  return { recovery: load, gasless: load, calls: load }
}

/** What `@paysession/core/recovery` does with a session, through its handle (see ./recovery.ts). */
export type Recovery = {
  resume(session: CheckoutHandle, previous: PreviousPayment): Promise<void> | void
  waitForPrompt(session: CheckoutHandle, record: PaymentRecord | undefined): Promise<void>
  untrack(session: CheckoutHandle, error: PaySessionError): void
}

export type CheckoutSessionParameters = {
  sessionId: string
  sessionToken: string
  /**
   * Asked for a fresh session token when the service refuses the current one (expired or not
   * valid), e.g. from your server. Resolve to undefined when there is none: the checkout then
   * follows the payment on chain. An expired token never shows as an expired payment.
   */
  getSessionToken?: SessionTokenProvider | undefined
  /** Locale for formatted balances. */
  locale?: string | undefined
  /** See `checkPreviousPayment`. */
  staleAfter?: number | undefined
  /**
   * The merchant's relay for payments without network fees (EIP-3009). With it, a token that
   * supports EIP-3009 can be paid by signing: `pay({ path: 'gasless' })`. https (plain http only
   * to this machine; a relative URL resolves against the page), or `INVALID_CONFIG`.
   */
  relayUrl?: string | undefined
  /**
   * The session as the page read it moments ago (the widget's button reads it before the
   * checkout's code has loaded): the first load starts from it instead of reading it again, when
   * it is this session's and no older than `polling.interval`. Polling reads it afresh at once.
   */
  initialSession?: PaymentSession | undefined
  /** When `initialSession` was read (ms since the epoch, by `polling.clock`). */
  initialSessionUpdatedAt?: number | undefined
  paths: CheckoutPaths
} & ExpectedPayment

/**
 * One customer's checkout of one session: it owns the session token (`token`), the transition
 * machine's state (the step is the machine's, nothing else's), the session's polling, and the
 * effects around them (wallet prompts, requests). Which step follows which event is `transition`
 * (./transition.ts); the session changes the step only through it (`dispatch`). Subscribe for
 * state; call the methods on user actions. `createCheckout` builds one with every path bundled.
 * @example
 * const checkout = new CheckoutSession(config, { sessionId, sessionToken, paths })
 * checkout.subscribe((state) => render(state))
 */
export class CheckoutSession implements Checkout {
  readonly config: PaySessionConfig
  readonly sessionId: string
  readonly staleAfter: number | undefined
  readonly token: SessionToken
  /** Aborted when the checkout is destroyed: stops following a hash or the chain. */
  readonly signal: AbortSignal
  #parameters: CheckoutSessionParameters
  #machine: CheckoutMachine<PaymentPath> = initialMachine
  #facts: CheckoutFacts
  #state: CheckoutState
  #listeners = new Set<CheckoutListener>()
  #notifying = false
  #pending = false
  #destroyed = false
  /** What the paths' code gets to work on this session (see `CheckoutHandle`). */
  readonly #handle: CheckoutHandle
  #assets: { network: NetworkInfo; tokens: StablecoinInfo[] } | undefined
  #unwatch: (() => void) | undefined
  #following = new AbortController()
  #stopConnection: () => void
  #stopWallets: () => void

  constructor(config: PaySessionConfig, parameters: CheckoutSessionParameters) {
    if (parameters.relayUrl) checkUrl(parameters.relayUrl, 'relayUrl', true)
    this.config = config
    this.#parameters = parameters
    this.sessionId = parameters.sessionId
    this.staleAfter = parameters.staleAfter
    this.token = new SessionToken(parameters.sessionToken, parameters.getSessionToken)
    this.signal = this.#following.signal
    this.#handle = {
      session: this,
      dispatch: (event, patch) => this.#dispatch(event, patch),
      set: (patch) => this.#set(patch),
    }
    this.#facts = {
      wallets: getWallets(config),
      tokens: [],
      gasWarning: false,
      gasless: false,
      canRetry: false,
    }
    this.#state = { ...this.#facts, step: this.#machine.step }
    this.#stopConnection = watchConnection(config.wagmiConfig, {
      onChange: (connection, previous) => {
        if (this.#destroyed || !this.#allows({ type: 'walletDisconnected' })) return
        if (connection.status === 'disconnected')
          this.#dispatch({ type: 'walletDisconnected' }, { account: undefined, tokens: [] })
        else if (connection.address !== previous.address || connection.chainId !== previous.chainId)
          void this.#loadTokens().catch((error) => this.#set({ error: asError(error) }))
      },
    })
    this.#stopWallets = watchWallets(config, (wallets) => this.#set({ wallets }))
    void this.#load()
  }

  // State: the machine's step plus the facts around it, published to every listener in order.

  getState(): CheckoutState {
    return this.#state
  }

  subscribe(listener: CheckoutListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** Paid, completed, expired, or the service's ERROR: only the service's news changes the step. */
  get settled(): boolean {
    return this.#machine.settled
  }

  get destroyed(): boolean {
    return this.#destroyed
  }

  /** The session's network (known once loaded). */
  get network(): NetworkInfo {
    return this.#assets!.network
  }

  /** Everything but the step, which changes only through `#dispatch`. */
  #set(patch: Partial<CheckoutFacts>): void {
    this.#publish(patch)
  }

  /**
   * The one way the step changes: the event through `transition`, with what else it brings.
   * An event the machine refuses changes nothing. Returns whether it was taken.
   */
  #dispatch(event: CheckoutEvent<PaymentPath>, patch: Partial<CheckoutFacts> = {}): boolean {
    const next = transition(this.#machine, event)
    if (next === this.#machine) return false
    const moved = next.step !== this.#machine.step
    this.#machine = next
    if (moved || Object.keys(patch).length) this.#publish(patch)
    return true
  }

  // A listener may call back into the session: its change is delivered after the current round,
  // so every listener sees the states in order and ends on the latest.
  #publish(patch: Partial<CheckoutFacts>) {
    if (this.#destroyed) return
    this.#facts = { ...this.#facts, ...patch }
    this.#state = { ...this.#facts, step: this.#machine.step }
    if (this.#notifying) {
      this.#pending = true
      return
    }
    this.#notifying = true
    try {
      do {
        this.#pending = false
        const snapshot = this.#state
        for (const listener of this.#listeners) listener(snapshot)
      } while (this.#pending)
    } finally {
      this.#notifying = false
    }
  }

  /** Whether the machine would take the event now (checked before an effect that precedes it). */
  #allows(event: CheckoutEvent<PaymentPath>) {
    return transition(this.#machine, event) !== this.#machine
  }

  explorerTxUrl(hash: Hex): string | undefined {
    const explorer = this.#assets?.network.explorerUrl
    return explorer ? `${explorer}/tx/${hash}` : undefined
  }

  /**
   * An error that ends this attempt: an expired session ends the checkout for good; a refused
   * token only ends what the service tells this page (`untrack` in ./recovery.ts).
   */
  fail(error: PaySessionError, canRetry: boolean): void {
    if (isTokenRefused(error)) {
      this.#recover((recovery) => recovery.untrack(this.#handle, error), error)
      return
    }
    const expired = error.code === 'SESSION_EXPIRED'
    this.#dispatch({ type: 'fail', expired }, { error, canRetry: !expired && canRetry })
  }

  /** Runs a recovery path once its module is loaded; one that cannot load ends the attempt. */
  #recover(path: (recovery: Recovery) => unknown, error: PaySessionError) {
    void this.#parameters.paths
      .recovery()
      .then(path, () => this.#dispatch({ type: 'fail', expired: false }, { error, canRetry: true }))
  }

  async #resume(previous: PreviousPayment) {
    return (await this.#parameters.paths.recovery()).resume(this.#handle, previous)
  }

  // Polling: the session's status through query-core (watchSession), fast while a payment is on
  // its way or the customer pays by hand, and once more at once after each news of ours.

  #onSession(session: PaymentSession) {
    writeSessionFacts(this.config.storage, session)
    this.#set({ session, amount: session.amount })
    const step = statusStep(session.status)
    if (!step) return
    if (isSettled(session)) clearPaymentRecord(this.config.storage, this.sessionId)
    const code =
      step === 'expired' ? 'SESSION_EXPIRED' : step === 'failed' ? 'SESSION_FAILED' : undefined
    // Paid: show the transaction the service saw fund the session, which is the replacement when
    // the wallet sped the transfer up, even if the service says so before the receipt wait does.
    const funding = session.fundingTransactionHash
    const funded =
      (step === 'paid' || step === 'completed') && isTransactionHash(funding)
        ? { hash: funding, explorerTxUrl: this.explorerTxUrl(funding) }
        : {}
    this.#dispatch(
      { type: 'session', status: session.status },
      { error: code && new PaySessionError(code), canRetry: false, ...funded },
    )
  }

  #watch() {
    if (this.#unwatch) return
    const { config, sessionId } = this
    const token = this.token.current
    // A query a stopped watcher left in error would stop the new watcher at its first result.
    config.queryClient.removeQueries({
      queryKey: sessionQueryKey(sessionId),
      predicate: (query) => query.state.status === 'error',
    })
    this.#unwatch = watchSession(config, {
      sessionId,
      sessionToken: token,
      // Manual payment polls as fast: the customer's transfer can arrive any moment.
      isActive: () =>
        this.#machine.busy || isInFlight(this.#machine.step) || this.#machine.step === 'manual',
      onChange: (session) => this.#onSession(session),
      onError: (error, final) => {
        if (!final || this.settled) return
        this.#unwatch = undefined
        this.#dispatch({ type: 'retryByLoading' })
        if (!isTokenRefused(error)) return this.fail(error, true)
        void this.token.renew(token).then((fresh) => {
          if (this.#destroyed || this.settled) return
          if (fresh) this.#watch()
          else this.#recover((recovery) => recovery.untrack(this.#handle, error), error)
        })
      },
    })
  }

  stopWatching(): void {
    this.#unwatch?.()
    this.#unwatch = undefined
  }

  /** Reads the session at once rather than at the next poll. */
  refresh(): void {
    if (!this.#destroyed)
      void this.config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(this.sessionId) })
  }

  /** The page's own read of the session, once, if still as fresh as a poll's (`initialSession`). */
  #initialSession(): PaymentSession | undefined {
    const { initialSession: session, initialSessionUpdatedAt: at = 0 } = this.#parameters
    this.#parameters = { ...this.#parameters, initialSession: undefined }
    const { clock, interval } = this.config.polling
    const age = clock.now() - at
    return session?.paymentSessionId === this.sessionId && age >= 0 && age <= interval
      ? session
      : undefined
  }

  async #readSession() {
    const { config, sessionId } = this
    return this.token.use((sessionToken) => getSession(config, { sessionId, sessionToken }))
  }

  async #load() {
    this.#dispatch({ type: 'load' }, { error: undefined, canRetry: false })
    try {
      const session = this.#initialSession() ?? (await this.#readSession())
      // A session for another order is refused before anything is shown or offered: not even
      // "paid" (an order paid elsewhere is not this one), nor the manual payment.
      checkExpectedPayment(session, this.#parameters)
      this.#onSession(session)
      if (this.settled) return
      this.#assets = resolveSessionAssets(this.config.registry, session)
      this.#set({ network: this.#assets.network })
      this.#watch()
      const previous = await checkPreviousPayment(this.config, {
        session,
        staleAfter: this.staleAfter,
      })
      if (this.settled) return
      if (previous.kind !== 'none') return await this.#resume(previous)
      this.#dispatch({ type: 'nothingPending' })
      await this.offerPayment()
    } catch (error) {
      if (this.settled) return
      this.fail(asError(error), isRetryable(error))
    }
  }

  /** Nothing in flight: the wallet choice, or the token choice for a connected wallet. */
  async offerPayment(): Promise<void> {
    const wagmi = this.config.wagmiConfig
    if (getConnection(wagmi).status === 'disconnected') await reconnect(wagmi).catch(() => {})
    if (getConnection(wagmi).status === 'connected') await this.#loadTokens()
    else this.#dispatch({ type: 'walletNeeded' })
  }

  /**
   * The transfer is mined: report it once more with the spec's `wait` (idempotent), so the
   * service processes it now, then read the session at once rather than at the next poll. A
   * service that ignores `wait`, or fails, leaves it to polling.
   */
  async askServiceToSettle(hash: Hex): Promise<void> {
    const { config, sessionId } = this
    await this.token
      .use((sessionToken) => reportFunding(config, { sessionId, sessionToken, hash, wait: true }))
      .catch(() => {})
    // Paid shows from this read, never from the report's answer alone: the session as last
    // read may name another token or no customer yet, and paid tells the customer what they paid.
    this.refresh()
  }

  #gasless(symbol: string | undefined) {
    return (
      !!this.#parameters.relayUrl &&
      !!this.#parameters.paths.gasless &&
      !!this.#assets?.tokens.some((t) => t.symbol === symbol && t.eip3009)
    )
  }

  async #loadTokens() {
    const connection = getConnection(this.config.wagmiConfig)
    if (connection.status !== 'connected' || !this.#assets)
      return this.#dispatch({ type: 'walletNeeded' })
    const state = this.#state
    const { tokens, gasWarning } = await getStablecoinBalances(this.config, {
      network: this.#assets.network,
      tokens: this.#assets.tokens,
      account: connection.address,
      amount: state.session?.amount,
      locale: this.#parameters.locale,
    })
    const preferred =
      tokens.find((t) => t.symbol === state.selectedToken && t.sufficient) ??
      tokens.find((t) => t.symbol === state.session?.tokenSymbol && t.sufficient) ??
      tokens.find((t) => t.sufficient)
    // A session that accepts one token has nothing to choose: straight to review when it can pay.
    this.#dispatch(
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
            gasless: this.#gasless(symbol),
          }),
        ),
        selectedToken: preferred?.symbol,
        gasless: this.#gasless(preferred?.symbol),
        gasWarning,
        error: undefined,
        canRetry: false,
      },
    )
  }

  // The customer's actions.

  async connect(walletId?: string): Promise<void> {
    if (!this.#dispatch({ type: 'connect', walletId }, { error: undefined, canRetry: false }))
      return
    try {
      await connectWallet(this.config, { walletId })
      await this.#loadTokens()
    } catch (error) {
      const failed = asError(error)
      // The page's registry does not match the chain: no wallet can pay this checkout.
      if (failed.code === 'INVALID_CONFIG') return this.fail(failed, false)
      this.#dispatch({ type: 'connectFailed' }, { error: failed, canRetry: true })
    }
  }

  async disconnect(): Promise<void> {
    if (!this.#allows({ type: 'disconnect' })) return
    await disconnectWallet(this.config).catch(() => {})
    this.#dispatch(
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

  selectToken(symbol: string): void {
    if (!this.#allows({ type: 'selectToken', sufficient: true })) return
    const token = this.#state.tokens.find((t) => t.symbol === symbol.toUpperCase())
    if (!token) {
      this.#set({ error: new PaySessionError('UNSUPPORTED_TOKEN', { details: symbol }) })
      return
    }
    if (!token.sufficient) {
      this.#dispatch(
        { type: 'selectToken', sufficient: false },
        {
          selectedToken: token.symbol,
          error: new PaySessionError('INSUFFICIENT_BALANCE'),
          canRetry: false,
        },
      )
      return
    }
    this.#dispatch(
      { type: 'selectToken', sufficient: true },
      {
        selectedToken: token.symbol,
        gasless: this.#gasless(token.symbol),
        error: undefined,
        canRetry: false,
      },
    )
  }

  async pay(options: PayOptions = {}): Promise<void> {
    const selected = this.#state.selectedToken
    // A path the state does not offer (gasless without a relay or an EIP-3009 token) is the wallet's.
    let path = options.path ?? 'wallet'
    if (!this.#state.gasless && path === 'gasless') path = 'wallet'
    if (!selected) return
    // Which steps allow paying (one attempt at a time) is the transition's answer (`canPay`).
    if (!this.#dispatch({ type: 'pay', path }, { error: undefined, canRetry: false })) return
    const { config } = this
    const { paths, relayUrl, expectedAmount, expectedCurrency } = this.#parameters
    try {
      // Never twice: the freshest status and the chain decide before any prompt opens. The chain
      // is asked about the session the review shows while its status is read, in the same round
      // trip; a session that changed in what those checks read is asked about again.
      const shown = this.#state.session
      const early = shown && path === 'wallet' ? this.#checkEarly(shown, selected) : undefined
      const session = await this.#readSession()
      this.#onSession(session)
      if (this.settled) return
      const same = early && sameChecks(shown!, session)
      const previous = await (same
        ? early.previous
        : checkPreviousPayment(config, { session, staleAfter: this.staleAfter }))
      if (previous.kind !== 'none') return await this.#resume(previous)
      // A rarer path's code loads when a customer takes it.
      const action = await payments[path](paths)
      const calls = paths.calls
      const paid = await action(config, {
        session,
        sessionToken: this.token.current,
        relayUrl: relayUrl!,
        token: selected,
        expectedAmount,
        expectedCurrency,
        signal: this.signal,
        prepared: same ? early.prepared : undefined,
        ...(calls && {
          sendCalls: async (...args) => (await calls()).sendWithCalls(...args),
        }),
        onAwaitingWallet: () => {
          this.#dispatch({ type: 'walletAccepted' })
        },
        onHash: (hash) => {
          this.#dispatch({ type: 'hash' }, { hash, explorerTxUrl: this.explorerTxUrl(hash) })
        },
        onReported: () => {
          this.#dispatch({ type: 'reported' })
          this.refresh()
        },
      })
      this.#dispatch({ type: 'mined' })
      void this.askServiceToSettle(paid.hash)
    } catch (error) {
      if (!this.settled) this.#onPayError(asError(error))
    } finally {
      this.#dispatch({ type: 'payEnded' })
    }
  }

  /**
   * The chain's checks of a payment of `session` in `token`: whether it was paid already
   * (checkPreviousPayment) and the payer's side (preparePayment: balance, block). Not on a wallet
   * on another network, whose switch prompt waits for the fresh status.
   */
  #checkEarly(session: PaymentSession, token: string) {
    if (getConnection(this.config.wagmiConfig).chainId !== this.#assets?.network.chainId) return
    const { expectedAmount, expectedCurrency } = this.#parameters
    const early = {
      previous: checkPreviousPayment(this.config, { session, staleAfter: this.staleAfter }),
      prepared: preparePayment(this.config, { session, token, expectedAmount, expectedCurrency }),
    }
    // Awaited only when the fresh status agrees: a failure before then is not unhandled.
    early.previous.catch(() => {})
    early.prepared.catch(() => {})
    return early
  }

  #onPayError(error: PaySessionError) {
    if (error.code === 'SESSION_EXPIRED' || isTokenRefused(error)) return this.fail(error, false)
    const { storage } = this.config
    if (error.code === 'PAYMENT_IN_PROGRESS')
      // Another tab recorded its prompt between our check and our record.
      return this.#recover(
        (recovery) =>
          recovery.waitForPrompt(this.#handle, readPaymentRecord(storage, this.sessionId)),
        error,
      )
    // The record written before the prompt says whether anything may have left.
    const recorded = !!readPaymentRecord(storage, this.sessionId)
    const canRetry = ![
      'INSUFFICIENT_BALANCE',
      'WALLET_NOT_CONNECTED',
      'INVALID_CONFIG',
      'PAYER_BLOCKED',
      'RECIPIENT_BLOCKED',
    ].includes(error.code)
    this.#dispatch(
      { type: 'payFailed', code: error.code, recorded, hash: !!this.#state.hash },
      { error, canRetry },
    )
    // Back to the token choice (transition.ts): its balances read again, the error kept.
    if (
      ['INSUFFICIENT_BALANCE', 'TOKEN_PAUSED', 'PAYER_BLOCKED', 'RECIPIENT_BLOCKED'].includes(
        error.code,
      )
    )
      void this.#loadTokens().then(
        () => this.#set({ error }),
        () => {},
      )
  }

  payManually(): void {
    if (!this.#dispatch({ type: 'manual' }, { error: undefined, canRetry: false })) return
    this.refresh()
  }

  async retry(): Promise<void> {
    if (!this.#state.canRetry || this.#machine.busy) return
    const action = retryAction(this.#machine)
    if (action === 'connect') return this.connect(this.#machine.lastWalletId)
    if (action === 'pay') {
      this.#dispatch({ type: 'retry' }, { error: undefined, canRetry: false })
      return this.pay({ path: this.#machine.lastPath })
    }
    this.stopWatching()
    return this.#load()
  }

  destroy(): void {
    this.#destroyed = true
    this.#following.abort()
    this.stopWatching()
    this.#stopConnection()
    this.#stopWallets()
    this.#listeners.clear()
  }
}

/** Any failure as the SDK's error (a wallet's own error kept as `cause`). */
export const asError = (error: unknown): PaySessionError =>
  error instanceof PaySessionError ? error : new PaySessionError('WALLET_ERROR', { cause: error })

function isRetryable(error: unknown) {
  return (
    !(error instanceof PaySessionError) ||
    ['API_UNAVAILABLE', 'INVALID_RESPONSE', 'CHAIN_UNAVAILABLE', 'WALLET_ERROR'].includes(
      error.code,
    )
  )
}

/** What the payment's chain checks read of a session: equal, their answers hold for both. */
const checkedFields = [
  'status',
  'amount',
  'currency',
  'network',
  'tokenSymbol',
  'acceptedTokens',
  'oneTimeWalletAddress',
  'userSubmittedTransactionHash',
  'fundingTransactionHash',
] as const
function sameChecks(a: PaymentSession, b: PaymentSession): boolean {
  return checkedFields.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]))
}
