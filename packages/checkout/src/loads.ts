import { languageOf } from './i18n/catalogs.js'
import type { Catalog } from './i18n/en.js'
import { languages } from './i18n/languages.js'

// What loads when: every part of the widget that is not in the first file, when it loads, and
// where its `import()` is. The script-tag build makes each a file of its own, named in brackets
// (the session read and the dialog each arrive in one request: scripts/build-cdn.mjs,
// test/chunks.test.ts); an app's bundler splits the npm build the same way.
//
// | part [file]                        | loads                                 | in              |
// |------------------------------------|---------------------------------------|-----------------|
// | the customer's language (English's | at first paint                        | loadCatalog     |
// |   button words are in the first    |                                       |                 |
// |   file) [<tag>.js]                 |                                       |                 |
// | the button's session read and      | before first paint, once session id,  | loadSessionRead |
// |   amount format [preview.read]     |   token and service are set; the read |  (core's        |
// |                                    |   itself leaves beside it             |  prefetchSession|
// | the dialog: core, wagmi, viem,     | fetched beside the button's read;     | loadDialog,     |
// |   query-core, the controller, the  |   started when the page is idle once  |  downloadDialog,|
// |   step views [checkout.dialog]     |   the button has its words, or on open|  startDialog    |
// | the manual, no-wallet, pairing and | the first time the dialog shows one   | loads.dialog.ts |
// |   rare views [checkout.manual]     |                                       |   lazyViews     |
// | the gasless button [gasless]       | once a token offers it (`relay-url`,  | loads.dialog.ts |
// |                                    |   EIP-3009); the review waits for it  |   gaslessView   |
// | core's rarer paths: recovery,      | the first time the checkout takes one | loads.dialog.ts |
// |   gasless, call bundles [paths]    |   (Pay, a payment left in flight)     |   paths         |
// | a wallet kind's connector          | a checkout starting with the kind on  | loads.dialog.ts |
// |   [<kind>.js]                      |   (`wallet-connect-project-id`)       |   loadWallets   |
//
// The first three are the first file's, here. The rest are the dialog's, in loads.dialog.ts,
// which loads with the dialog so that the first file carries none of their code; the dialog
// never imports this module (this module imports the dialog). Two kinds of `import()` are
// written elsewhere on purpose: each language's, generated into i18n/languages.ts from the
// language files (the chunked script-tag build fetches each by its tag: scripts/languages.mjs); and a wallet kind's, registered by the kind's own entry (`provideWallet` in
// wallets/<kind>/index.ts, or kinds.cdn.ts in the script-tag build), so that an app bundles a
// kind only when it imports it.

/** Every string of the locale's language: its file is a chunk of its own, loaded once. */
export const loadCatalog = (locale: string): Promise<Catalog> =>
  languages[languageOf(locale)]!().then((module) => module.catalog)

/** The button's light session read (core's getSession alone, no wallet) and amount formatter. */
export const loadSessionRead = () =>
  // Its parts by name, not the module object, so the bundle builds no namespace object for it.
  import('./controllers/preview.read.js').then(({ readSession, formatMoney }) => ({
    readSession,
    formatMoney,
  }))

/** The dialog's code: core's checkout (wagmi, viem, query-core), its controller, the step views. */
export const loadDialog = () =>
  import('./components/checkout/checkout.dialog.js').then(
    ({ createController, dialogStyles, renderStep }) => ({
      createController,
      dialogStyles,
      renderStep,
    }),
  )

/**
 * Beside the button's read, the dialog's code downloads: on a phone its round trips would
 * otherwise come after the button's, when a customer may already be pressing it.
 */
export const downloadDialog = (host: { fetchEngine(): Promise<unknown> }) =>
  void host.fetchEngine().catch(() => {})

/** Once the button has its words, the dialog starts when the page is idle. Opening starts it too. */
export function startDialog(host: { loadEngine(): Promise<unknown> }) {
  idle(() => void host.loadEngine())
}

/** Runs `fn` when the page is next idle, or after 2 s at the latest. */
export function idle(fn: () => void) {
  if ('requestIdleCallback' in globalThis) requestIdleCallback(fn, { timeout: 2000 })
  else setTimeout(fn, 1)
}
