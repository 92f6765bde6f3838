/**
 * Whether this runs in a browser page (a `window` with a `document`). Deno, Bun, Workers and Node
 * have no `document`, so the client refuses only where its API key would reach visitors.
 */
export function isBrowser(scope: object = globalThis): boolean {
  const global = scope as { window?: unknown; document?: unknown }
  return typeof global.window !== 'undefined' && typeof global.document !== 'undefined'
}

export const browserMessage =
  'createPaySessionClient must not run in a browser page: it uses your merchant API key, which must stay on your server. ' +
  'In the browser use @paysession/checkout or @paysession/core with the session token.'
