import {
  type ButtonStatus,
  buttonStatus,
  type CheckoutState,
  type PaymentSession,
  type PaySessionError,
  prefetchSession,
  readPaymentRecord,
} from '@paysession/core'
import type { ReactiveController, ReactiveControllerHost } from 'lit'
import { PaySessionErrorEvent } from '../events/error.js'
import { PaySessionReadyEvent } from '../events/ready.js'
import type { Inputs } from '../inputs.js'
import { downloadDialog, idle, loadSessionRead, startDialog } from '../loads.js'

type SessionRead = Awaited<ReturnType<typeof loadSessionRead>>

/** What the preview reads of its element (`<paysession-checkout>` implements it). */
export interface PreviewHost
  extends ReactiveControllerHost,
    EventTarget,
    // `polling`: its clock dates the read, which the checkout then takes if it is as fresh as a poll's.
    Readonly<
      Pick<
        Inputs,
        | 'sessionId'
        | 'sessionToken'
        | 'apiBase'
        | 'expectedAmount'
        | 'expectedCurrency'
        | 'fetch'
        | 'polling'
      >
    > {
  readonly resolvedLocale: string
  /** Fetches the dialog's code: the preview asks beside its own read. */
  fetchEngine(): Promise<unknown>
  /** Loads the dialog's code and starts it: the preview asks once the button is painted and the page idle. */
  loadEngine(): Promise<unknown>
}

/**
 * The button's own view of the session, in the first file (no wallet code): one light read with
 * the session token, the payment this browser stored as started, and what the button says about
 * both, or about the checkout's state once the dialog's code runs.
 */
export class PreviewController implements ReactiveController {
  /** The session as the button's read (or core's, after a refused token) found it. */
  session: PaymentSession | undefined
  /** Why the button's read failed (never a refused token: that says nothing about the payment). */
  error: Pick<PaySessionError, 'code' | 'shortMessage'> | undefined
  /** A payment this browser started and recorded (core's "never twice" record). */
  #started = false
  #formatMoney: SessionRead['formatMoney'] | undefined
  #key = ''
  #lastRead: { key: string; session: PaymentSession; at: number } | undefined

  readonly #host: PreviewHost

  constructor(host: PreviewHost) {
    this.#host = host
    host.addController(this)
  }

  // Before the first render: the read's request leaves as soon as the element has its settings.
  hostUpdate() {
    const { sessionId, sessionToken, apiBase, expectedAmount, expectedCurrency } = this.#host
    const key = this.#keyOf()
    if (key === this.#key || !sessionId || !sessionToken || !apiBase) return
    this.#key = key
    void this.#read(key, { sessionId, sessionToken, apiBase, expectedAmount, expectedCurrency })
  }

  /** The button's read for the element's settings as they are now, and when it arrived. */
  lastRead(): { session: PaymentSession; at: number } | undefined {
    const read = this.#lastRead
    return read?.key === this.#keyOf() ? read : undefined
  }

  #keyOf() {
    const { sessionId, sessionToken, apiBase, expectedAmount, expectedCurrency } = this.#host
    return [sessionId, sessionToken, apiBase, expectedAmount, expectedCurrency].join('|')
  }

  /**
   * The session core read with a fresh token when the button's read could not: announced too.
   * Called from the checkout controller's state update, which re-renders anyway.
   */
  adopt(session: PaymentSession) {
    if (!this.session) this.#announce(session)
  }

  /** The session's amount in its currency, once known and the formatter loaded. */
  total(state?: CheckoutState): string | undefined {
    const session = state?.session ?? this.session
    return session && this.#formatMoney
      ? this.#formatMoney(
          state?.amount ?? session.amount,
          session.currency,
          this.#host.resolvedLocale,
        )
      : undefined
  }

  /**
   * What the button says (core's `buttonStatus`): from the checkout's state once the dialog's code
   * runs (with its `inFlight`, so the step groups stay in the dialog's code), else this read.
   */
  status(state?: CheckoutState, inFlight = false): ButtonStatus {
    return buttonStatus({
      step: state?.step,
      inFlight,
      session: state?.session ?? this.session,
      errorCode: (state?.error ?? this.error)?.code,
      unavailable: !!this.error,
      started: this.#started,
      priced: !!this.total(state),
    })
  }

  async #read(
    key: string,
    options: {
      sessionId: string
      sessionToken: string
      apiBase: string
      expectedAmount: string | undefined
      expectedCurrency: string | undefined
    },
  ) {
    // The session's request leaves now, beside its reader's chunk, which takes the answer.
    const fetch = prefetchSession({ ...options, fetch: this.#host.fetch })
    const loading = loadSessionRead()
    downloadDialog(this.#host)
    warmIntl(this.#host.resolvedLocale)
    let reader: SessionRead | undefined
    try {
      reader = await loading
    } catch {}
    const clock = this.#host.polling?.clock
    const result = reader && (await reader.readSession({ ...options, fetch, clock }))
    this.#formatMoney ??= reader?.formatMoney
    // A newer session id, token or service since: that read decides.
    if (key !== this.#key) return
    if (result && 'session' in result) {
      this.error = undefined
      this.#lastRead = { key, session: result.session, at: result.at }
      this.#announce(result.session)
    } else {
      // Without `result` the chunk itself failed to load: nothing can be reached from here.
      const e = result?.error ?? {
        code: 'API_UNAVAILABLE' as const,
        shortMessage: 'The payment service is unreachable. Please try again.',
      }
      // An expired token: still loading, until the dialog code (a fresh token, the chain) knows.
      if (e.code !== 'SESSION_TOKEN_EXPIRED') this.error = e
      this.#host.dispatchEvent(
        new PaySessionErrorEvent({
          code: e.code,
          message: e.shortMessage,
          // The page's own settings (an insecure api-base, another order): trying again cannot help.
          retryable: e.code !== 'INSECURE_API_BASE' && e.code !== 'SESSION_MISMATCH',
        }),
      )
    }
    this.#host.requestUpdate()
    // The dialog starts once the button has its words, not while they are read (loads.ts).
    startDialog(this.#host)
  }

  #announce(session: PaymentSession) {
    this.session = session
    try {
      // Storage may be disabled (a locked-down iframe): then nothing was recorded here either.
      this.#started = Boolean(readPaymentRecord(localStorage, this.#host.sessionId!))
    } catch {}
    const { paymentSessionId, status, amount, currency } = session
    this.#host.dispatchEvent(
      new PaySessionReadyEvent({ sessionId: paymentSessionId, status, amount, currency }),
    )
  }
}

// Intl's first use in a page loads its locale data: tens of ms on a phone. The page is idle while
// the session is on its way, so that happens then, not between the answer and the amount.
const warmIntl = (locale: string) =>
  idle(() => {
    try {
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(0)
    } catch {}
  })
