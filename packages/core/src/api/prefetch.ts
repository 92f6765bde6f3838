import { isPlainId, isSecureUrl, normalizeApiBase } from '@paysession/protocol'
import { requestHeaders } from './headers.js'

export type PrefetchSessionParameters = {
  apiBase: string
  sessionId: string
  sessionToken: string
  fetch?: typeof fetch | undefined
}

/**
 * Sends `getSession`'s first request now, before the code that reads its answer has loaded (the
 * widget's first file starts it; its read's chunk, arriving later, reads it). Returns the `fetch`
 * to give `createApiConfig`: it answers that one request with the response already on its way,
 * follows that request's abort signal, and sends every other request as usual. Sent only where
 * `getSession` would send it (an id `servicePaths` takes, a service `checkApiBase` allows, its
 * first path form): anything else is left to `getSession`, which says what is wrong.
 * @example
 * const fetch = prefetchSession({ apiBase, sessionId, sessionToken })
 * // …later, once the reading code has loaded:
 * await getSession(createApiConfig({ apiBase, fetch }), { sessionId, sessionToken })
 */
export function prefetchSession(parameters: PrefetchSessionParameters): typeof fetch {
  const send = parameters.fetch ?? ((...args) => globalThis.fetch(...args))
  const base = normalizeApiBase(parameters.apiBase)
  const url = `${base}/payment-sessions/${encodeURIComponent(parameters.sessionId)}`
  const abort = new AbortController()
  let early: Promise<Response> | undefined
  try {
    if (isPlainId(parameters.sessionId) && isSecureUrl(new URL(base))) {
      const headers = requestHeaders(parameters.sessionToken)
      early = send(url, { method: 'GET', headers, signal: abort.signal })
      // Never an unhandled rejection, whether getSession takes it or not.
      early.catch(() => {})
    }
  } catch {}
  return (input, init) => {
    const response = input === url ? early : undefined
    early = undefined
    if (!response) return send(input, init)
    init?.signal?.addEventListener('abort', () => abort.abort(init.signal?.reason))
    return response
  }
}
