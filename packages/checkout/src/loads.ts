import { languageOf } from './i18n/catalogs.js'
import type { Catalog } from './i18n/en.js'
import { languages } from './i18n/languages.js'

// What loads when: every part of the widget that is not in the first file, when it is fetched,
// and where its `import()` is. The script-tag build makes each a file of its own (the session
// read and the dialog each arrive in one request: scripts/build-cdn.mjs, test/chunks.test.ts);
// an app's bundler splits the npm build the same way.
//
// | part                                     | loads                                        | chunk           | here               |
// |------------------------------------------|----------------------------------------------|-----------------|--------------------|
// | the customer's language (not English)    | first paint                                  | <tag>.js        | loadCatalog        |
// | the button's session read, amount format | first paint, with session id, token, service | preview.read    | loadSessionRead    |
// | the dialog: core (wagmi, viem, query-    | fetched once the button has its words,       | checkout.dialog | loadDialog,        |
// |   core), its controller, the step views  |   started on first open or when idle         |                 |   prefetchDialog   |
// | the manual, no-wallet, pairing and rare  | the first time the dialog shows one of them  | checkout.manual | loads.dialog.ts    |
// |   views, with the QR encoder             |                                              |                 |   lazyViews        |
// | the gasless button                       | a step that offers it: `relay-url` set and   | gasless         | loads.dialog.ts    |
// |                                          |   an EIP-3009 token in the wallet            |                 |   gaslessView      |
// | core's rarer paths (recovery, gasless,   | the first time the checkout takes one        | paths           | loads.dialog.ts    |
// |   call bundles), one chunk               |   (on Pay, or a payment left in flight)      |                 |   paths            |
// | a wallet kind's connector                | a checkout starting with its attribute set   | <kind>.js       | loads.dialog.ts    |
// |                                          |   (`wallet-connect-project-id`)              |                 |   loadWallets      |
//
// The first three are the first file's, with this module. The rest are the dialog's: declared in
// loads.dialog.ts, which loads with the dialog, so that the first file carries none of their code.
// The dialog never imports this module (this module imports the dialog). Two `import()`s are
// written elsewhere on purpose: each language's, generated into i18n/languages.ts from the
// language files; and a wallet kind's, registered by the kind's own entry (`provideWallet` in
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
 * After the button's read: the dialog's code downloads at once (the button painted first, and a
 * customer who clicks soon waits less), and starts when the page is idle. Opening starts it too.
 */
export function prefetchDialog(host: {
  fetchEngine(): Promise<unknown>
  loadEngine(): Promise<unknown>
}) {
  host.fetchEngine().catch(() => {})
  const idle = globalThis.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1))
  idle(() => void host.loadEngine(), { timeout: 2000 })
}
