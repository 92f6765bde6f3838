/**
 * Throws when loaded in a browser: the merchant API key must never reach one.
 * Bundlers pick `dist/browser.js` through the `browser` export condition; this
 * catches the cases that bypass it.
 */
export function assertNotBrowser(scope: object = globalThis): void {
  const global = scope as { window?: unknown; document?: unknown }
  if (typeof global.window !== 'undefined' && typeof global.document !== 'undefined') {
    throw new Error(browserMessage)
  }
}

export const browserMessage =
  '@paysession/server must not run in a browser: it uses your merchant API key, which must stay on your server. ' +
  'In the browser use @paysession/checkout or @paysession/core with the session token.'
