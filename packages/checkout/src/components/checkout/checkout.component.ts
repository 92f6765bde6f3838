import type { ButtonStatus, CheckoutState } from '@paysession/core'
import { type CSSResult, html, LitElement, nothing } from 'lit'
import { PreviewController } from '../../controllers/preview.controller.js'
import { PaySessionCloseEvent } from '../../events/close.js'
import { PaySessionOpenEvent } from '../../events/open.js'
import { type Catalog, languageOf, rtl, served } from '../../i18n/catalogs.js'
import * as english from '../../i18n/en.button.js'
import { format } from '../../i18n/format.js'
import { type Inputs, inputRows } from '../../inputs.js'
import { loadCatalog, loadDialog } from '../../loads.js'
import { deepActiveElement, focusable, trapFocus } from '../focusTrap.js'
import { defineObjectProperties, inputProperties } from './checkout.properties.js'
import { styles } from './checkout.styles.js'

export type { SessionTokenProvider } from '../../inputs.js'

type Engine = Awaited<ReturnType<typeof loadDialog>>
/** The checkout controller as the element and its views see it: read its state, call its methods. */
type Controller = Readonly<ReturnType<Engine['createController']>>

// The inputs' properties (src/inputs.ts): typed here, made by Lit from `static properties`.
export interface PaySessionCheckout extends Inputs {}

/**
 * The stablecoin checkout: a pay button that opens a dialog walking the customer through the
 * payment (wallet, stablecoin, review, confirmation) or a manual payment with a QR code.
 * The dialog's code (core, wagmi, viem, query-core) downloads once the button shows and starts
 * on first open or when the page is idle.
 *
 * @summary Stablecoin checkout for one Payment Session.
 * @tag paysession-checkout
 *
 * @event {PaySessionReadyEvent} paysession-ready - The session loaded; the button shows it.
 * @event {PaySessionOpenEvent} paysession-open - The dialog opened.
 * @event {PaySessionCloseEvent} paysession-close - The dialog closed.
 * @event {PaySessionStepChangeEvent} paysession-step-change - The checkout moved to another step.
 * @event {PaySessionWalletConnectedEvent} paysession-wallet-connected - A wallet connected.
 * @event {PaySessionTokenSelectedEvent} paysession-token-selected - The customer chose a stablecoin.
 * @event {PaySessionFundingSentEvent} paysession-funding-sent - The wallet sent the transfer (hash).
 * @event {PaySessionStatusChangeEvent} paysession-status-change - The service status changed.
 * @event {PaySessionPaidEvent} paysession-paid - The session is paid.
 * @event {PaySessionErrorEvent} paysession-error - An error is shown (stable `code`).
 *
 * @csspart button - The pay button.
 * @csspart dialog - The dialog.
 * @csspart header - The dialog header: who is paid and how much, on every step.
 * @csspart title - The dialog title (the merchant's name when given).
 * @csspart logo - The merchant's logo.
 * @csspart total - The amount in the header.
 * @csspart close - The close button.
 * @csspart body - The dialog body.
 * @csspart wallet - A wallet choice.
 * @csspart token - A stablecoin choice.
 * @csspart primary - The main action of a step.
 * @csspart gasless - "Pay without network fees" (with `relay-url`, for EIP-3009 tokens).
 * @csspart error - An error message.
 * @csspart notice - A notice (gas warning, waiting).
 * @csspart address - The receiving address.
 * @csspart x402-url - The session's x402 URL in the manual step (with `x402-url`).
 * @csspart qr - The EIP-681 QR code, or the QR code that opens the checkout on a phone.
 * @csspart wallet-link - A link that opens the checkout in a wallet app (a phone without a wallet).
 *
 * @cssprop --paysession-font - Font family.
 * @cssprop --paysession-font-size - Base font size (16px).
 * @cssprop --paysession-radius - Corner radius (10px).
 * @cssprop --paysession-accent - Button and accent color.
 * @cssprop --paysession-accent-contrast - Text on the accent color.
 * @cssprop --paysession-background - Dialog background.
 * @cssprop --paysession-foreground - Text color.
 * @cssprop --paysession-muted - Secondary text.
 * @cssprop --paysession-border - Borders.
 * @cssprop --paysession-surface - Address and notice background.
 * @cssprop --paysession-danger - Errors.
 * @cssprop --paysession-success - Success mark.
 * @cssprop --paysession-focus-ring - Focus ring (a box-shadow).
 * @cssprop --paysession-backdrop - Backdrop behind the dialog.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Lit makes the inputs' accessors.
export class PaySessionCheckout extends LitElement {
  static override styles = styles
  static override properties = {
    ...inputProperties,
    _open: { state: true, attribute: false },
    _catalog: { state: true, attribute: false },
    _engine: { state: true, attribute: false },
  }
  static {
    defineObjectProperties(PaySessionCheckout)
  }

  // Reactive state: Lit makes its accessors by name, so it cannot be a `#` field like the rest.
  /** @internal */
  declare _open: boolean
  /** @internal */
  declare _catalog: Catalog | undefined
  /** @internal */
  declare _engine: Engine | undefined
  /** @internal The button's session read and what the button says (the first file's, no wallet code). */
  readonly preview: Readonly<PreviewController> = new PreviewController(this)
  /**
   * The checkout controller, once the dialog code has loaded.
   * @readonly
   */
  controller: Controller | undefined
  #returnFocus: HTMLElement | null = null
  #focusedStep = ''
  #enginePromise: Promise<Engine> | undefined
  #dialogCode: Promise<Engine> | undefined
  #catalogLocale: string | undefined
  #catalogPromise: Promise<unknown> | undefined
  #catalogFailed = false

  constructor() {
    super()
    this._open = false
    for (const [name, input] of inputRows)
      if ('default' in input) this[name] = input.default as never
  }

  /**
   * The effective locale: the first served of `locale`, the nearest `lang` (the element's, an
   * ancestor's, the page's), the browser's languages; else English. Read at each render.
   */
  get resolvedLocale(): string {
    const lang = this.closest<HTMLElement>('[lang]')?.lang
    const asked = [this.locale, lang, document.documentElement.lang, ...navigator.languages]
    return asked.find((tag) => tag && served(tag)) || 'en'
  }

  /** Opens the checkout dialog (loads its code first when needed). */
  async open(): Promise<void> {
    if (this._open) return
    this.#returnFocus = deepActiveElement()
    if (this.#catalogFailed) this.#catalogLocale = undefined
    this._open = true
    await this.updateComplete
    this.#dialog?.showModal()
    this.#focusedStep = ''
    this.requestUpdate()
    this.dispatchEvent(new PaySessionOpenEvent({ sessionId: this.sessionId ?? '' }))
    await this.loadEngine()
  }

  /** Closes the dialog and gives focus back to where it was. */
  close(): void {
    if (!this._open) return
    this._open = false
    this.#dialog?.close()
    // An error the customer has seen is not shown again when the dialog reopens.
    this.controller?.dismiss()
    ;(this.#returnFocus ?? this.#button)?.focus()
    this.#returnFocus = null
    this.#focusedStep = ''
    this.dispatchEvent(
      new PaySessionCloseEvent({ sessionId: this.sessionId ?? '', step: this.state?.step }),
    )
  }

  /** The checkout state from core, once the dialog code has loaded. */
  get state(): CheckoutState | undefined {
    return this.controller?.state
  }

  /** Fetches the dialog code without running the checkout (when: loads.ts). */
  fetchEngine(): Promise<Engine> {
    this.#dialogCode ??= loadDialog()
    return this.#dialogCode
  }

  /** Loads the dialog code and starts the checkout controller. Called on open or when idle. */
  loadEngine(): Promise<Engine> {
    this.#enginePromise ??= this.fetchEngine().then(async (engine) => {
      this.addStyles(engine.dialogStyles)
      await this.#catalogPromise
      this.controller = engine.createController(this)
      this._engine = engine
      return engine
    })
    return this.#enginePromise
  }

  /** @internal A lazily loaded view's styles join this element's shadow root (once). */
  addStyles(styles: CSSResult) {
    const root = this.renderRoot as ShadowRoot
    const sheet = styles.styleSheet
    if (sheet && !root.adoptedStyleSheets.includes(sheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet]
  }

  /** Whether Escape or the close button may close the dialog now. */
  get closable(): boolean {
    return this.controller?.closable ?? true
  }

  get #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog')
  }

  get #button(): HTMLButtonElement | null {
    return this.renderRoot.querySelector('[part~="button"]')
  }

  /**
   * The button's words in this language. English's are in the first file: an English button, or
   * one whose language's chunk and English's both failed to load, never waits. Others wait for
   * their chunk.
   */
  get #strings(): typeof english | undefined {
    const inEnglish = this.#catalogFailed || languageOf(this.resolvedLocale) === 'en'
    return this._catalog ?? (inEnglish ? english : undefined)
  }

  override willUpdate() {
    const locale = this.resolvedLocale
    if (locale === this.#catalogLocale) return
    this.#catalogLocale = locale
    this._catalog = undefined
    this.#catalogFailed = false
    this.#catalogPromise = loadCatalog(locale)
      // A chunk that cannot load leaves the checkout in English rather than without words.
      .catch(() => loadCatalog('en'))
      .then(
        (catalog) => {
          if (locale === this.resolvedLocale) this._catalog = catalog
        },
        () => {
          // The button says it in English; opening the dialog asks for the words again.
          this.#catalogFailed = true
          this.requestUpdate()
        },
      )
  }

  override updated() {
    const ctl = this.controller
    // WalletConnect's pairing QR code shows once its view's chunk has loaded: focus moves then.
    const pairing = !!ctl?.pairingUri && !!this.renderRoot.querySelector('[part~="qr"]')
    const step = `${this.state?.step}:${ctl?.changingToken}:${ctl?.pickingWallet}:${pairing}`
    if (this.#dialog?.open && this._engine && step !== this.#focusedStep) {
      this.#focusedStep = step
      this.focusStep()
    }
  }

  /** Moves focus into the current step (its marked action, else its first control). */
  focusStep() {
    const body = this.renderRoot.querySelector('[part~="body"]')
    const target =
      body?.querySelector<HTMLElement>('[data-autofocus]') ??
      body?.querySelector<HTMLElement>(focusable) ??
      this.renderRoot.querySelector<HTMLElement>('[part~="close"]')
    target?.focus()
  }

  #onKeydown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault()
      if (this.closable) this.close()
      return
    }
    trapFocus(event, this.#dialog, this.renderRoot as ShadowRoot)
  }

  override render() {
    const dir = rtl(this.resolvedLocale) ? 'rtl' : 'ltr'
    const strings = this.#strings
    const t = strings ?? english
    // Until this language's words are in (a few ms), the button says nothing rather than English.
    const status = strings
      ? this.preview.status(this.state, this.controller?.inFlight)
      : 'payLoading'
    const total = this.preview.total(this.state)
    const label = !strings ? '…' : status === 'pay' ? format(t.pay, { amount: total! }) : t[status]
    const busy = status === 'payLoading'
    const logo = safeImageUrl(this.merchantLogo)
    return html`
      <button
        part="button"
        type="button"
        dir=${dir}
        aria-haspopup="dialog"
        aria-busy=${busy ? 'true' : 'false'}
        data-ended=${endings[status] ?? nothing}
        ?disabled=${busy}
        @click=${() => this.open()}
      >
        ${label}
      </button>
      <dialog
        part="dialog"
        aria-labelledby="title total"
        lang=${this.resolvedLocale}
        dir=${dir}
        @keydown=${this.#onKeydown}
        @cancel=${(event: Event) => event.preventDefault()}
      >
        ${
          this._open
            ? html`
              <div class="header" part="header">
                ${
                  logo
                    ? html`<img part="logo" src=${logo} alt="" referrerpolicy="no-referrer"
                        @error=${(e: Event) => ((e.target as HTMLElement).hidden = true)} />`
                    : nothing
                }
                <div class="who">
                  <h2 id="title" part="title">${this.merchantName || t.title}</h2>
                  <p id="total" part="total">${total}</p>
                </div>
                <button
                  part="close"
                  type="button"
                  aria-label=${t.close}
                  ?disabled=${!this.closable}
                  @click=${() => this.close()}
                >
                  ×
                </button>
              </div>
              <div part="body">
                ${
                  this._engine && this.controller && this._catalog
                    ? this._engine.renderStep(this, this.controller, this._catalog)
                    : html`<p>${t.loading}</p>`
                }
              </div>
            `
            : nothing
        }
      </dialog>
    `
  }
}

// A finished state is drawn quietly, not as a call to action.
const endings: Partial<Record<ButtonStatus, string>> = {
  paid: 'paid',
  expiredButton: 'expired',
  unavailable: 'failed',
}

// Only a web image, an inline one or a path: never `javascript:` or another scheme.
const safeImageUrl = (url: string | undefined) =>
  url && /^(https?:|data:image\/|[./])/i.test(url) ? url : undefined
