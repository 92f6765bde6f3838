import type { Registry } from '../registry/types.js'
import { checkApiBase } from '../utils/apiBase.js'

/** What the service's calls need: no wallet, no chain. Every `PaySessionConfig` is one. */
export type ApiConfig = {
  apiBase: string
  fetch: typeof fetch
  requestTimeout: number
  /** Names networks and tokens as the registry spells them; without one, as the service sent them. */
  registry?: Registry | undefined
}

export type CreateApiConfigParameters = {
  /** Service base URL, with or without `/api/v1`; `https:` (`http:` only on localhost). */
  apiBase: string
  fetch?: typeof fetch | undefined
  /** Per-request time-out (ms). Default 15 000. */
  requestTimeout?: number | undefined
  registry?: Registry | undefined
}

/**
 * The config of the service's calls alone (`getSession`), without wagmi, viem or query-core: for
 * a page that only reads a session, e.g. a pay button before its dialog's code loads.
 * @example const session = await getSession(createApiConfig({ apiBase }), { sessionId, sessionToken })
 */
export function createApiConfig(parameters: CreateApiConfigParameters): ApiConfig {
  return {
    apiBase: checkApiBase(parameters.apiBase),
    fetch: parameters.fetch ?? ((...args) => globalThis.fetch(...args)),
    requestTimeout: parameters.requestTimeout ?? 15_000,
    registry: parameters.registry,
  }
}
