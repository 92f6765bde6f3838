import { isUnknownRoute } from '@paysession/protocol'
import { apiError, unreachableError } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import type { ApiConfig } from './config.js'
import { requestHeaders } from './headers.js'

export type ApiRequest = {
  method: 'GET' | 'POST'
  /** The operation's two path forms (protocol's `servicePaths`). */
  paths: readonly [string, string]
  sessionToken: string
  body?: unknown
  signal?: AbortSignal | undefined
}

/**
 * The only place that calls fetch. Sends the session token, times out, maps HTTP errors to codes,
 * and retries once on the other path form when the first one is an unknown route (404, not JSON).
 */
export async function apiRequest(config: ApiConfig, request: ApiRequest): Promise<unknown> {
  let response = await send(config, request, request.paths[0])
  if (isUnknownRoute(response.status, response.headers.get('content-type'))) {
    await response.body?.cancel()
    response = await send(config, request, request.paths[1])
  }
  const body = await readJson(response)
  if (!response.ok) throw apiError(response.status, body.value)
  if (!body.ok)
    throw new PaySessionError('INVALID_RESPONSE', {
      status: response.status,
      details: 'response body is not JSON',
    })
  return body.value
}

async function send(config: ApiConfig, request: ApiRequest, path: string) {
  if (request.signal?.aborted)
    throw new PaySessionError('ABORTED', { cause: request.signal.reason })
  const timeout = AbortSignal.timeout(config.requestTimeout)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
  try {
    return await config.fetch(config.apiBase + path, {
      method: request.method,
      headers: {
        ...requestHeaders(request.sessionToken),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    })
  } catch (error) {
    if (request.signal?.aborted) throw new PaySessionError('ABORTED', { cause: error })
    throw unreachableError(error)
  }
}

async function readJson(response: Response): Promise<{ ok: boolean; value: unknown }> {
  try {
    const text = await response.text()
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, value: undefined }
  }
}
