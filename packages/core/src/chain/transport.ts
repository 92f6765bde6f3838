import {
  createTransport,
  HttpRequestError,
  ResponseBodyTooLargeError,
  RpcRequestError,
  stringify,
  TimeoutError,
  type Transport,
  UrlRequiredError,
} from 'viem'

let nextId = 0
const maxResponseBodySize = 10_485_760 // viem's default

/**
 * The HTTP JSON-RPC transport of the wagmi config core builds: what viem's `http` does with the
 * settings core uses (one request per call, no batching, no fetch hooks), in 1 KB gzip less of
 * the script-tag payment. The same requests, time-out (`TimeoutError`), basic-auth URLs (sent as
 * an `Authorization` header), response size limit and typed errors (`HttpRequestError`, a
 * JSON-RPC error as `RpcRequestError`, mapped by viem's `buildRequest`, which also retries).
 * test/transport.test.ts compares the two request for request.
 */
export function rpcTransport(
  url?: string | undefined,
  config: { timeout?: number | undefined } = {},
): Transport<'http'> {
  return ({ chain, retryCount, timeout: clientTimeout }) => {
    const timeout = clientTimeout ?? config.timeout ?? 10_000
    const target = url || chain?.rpcUrls.default.http[0]
    if (!target) throw new UrlRequiredError()
    const { href, headers } = withoutCredentials(target)
    return createTransport(
      {
        key: 'http',
        name: 'HTTP JSON-RPC',
        type: 'http',
        retryCount,
        timeout,
        async request({ method, params }, options) {
          const body = { method, params }
          const timer = new AbortController()
          const timeoutId = timeout > 0 ? setTimeout(() => timer.abort(), timeout) : undefined
          let data: { result?: unknown; error?: { code?: unknown; message?: unknown } }
          try {
            const response = await fetch(href, {
              method: 'POST',
              headers,
              body: stringify({ jsonrpc: '2.0', id: nextId++, ...body }),
              signal: options?.signal ?? timer.signal,
            })
            const size = Number(response.headers.get('Content-Length') ?? 0)
            const text = size > maxResponseBodySize ? '' : await response.text()
            if (Math.max(size, text.length) > maxResponseBodySize)
              throw new ResponseBodyTooLargeError({ maxSize: maxResponseBodySize, size })
            try {
              data = JSON.parse(text || '{}')
            } catch (error) {
              if (response.ok) throw error
              data = { error: text as never }
            }
            // A JSON-RPC error in a failed response goes on as one (viem does the same).
            const { error } = data
            if (
              !response.ok &&
              !(typeof error?.code === 'number' && typeof error.message === 'string')
            )
              throw new HttpRequestError({
                body,
                details: stringify(error) || response.statusText,
                headers: response.headers,
                status: response.status,
                url: href,
              })
          } catch (error) {
            if (options?.signal?.aborted) throw options.signal.reason
            if (error instanceof HttpRequestError || error instanceof ResponseBodyTooLargeError)
              throw error
            if (timer.signal.aborted) throw new TimeoutError({ body, url: href })
            throw new HttpRequestError({ body, cause: error as Error, url: href })
          } finally {
            clearTimeout(timeoutId)
          }
          if (data.error)
            throw new RpcRequestError({ body, error: data.error as never, url: target })
          return data.result as never
        },
      },
      { fetchOptions: undefined, url: target },
    )
  }
}

/** `fetch` refuses a URL with credentials: they go in an `Authorization` header instead. */
function withoutCredentials(target: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  try {
    const url = new URL(target)
    if (!url.username) return { href: url.toString(), headers }
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.Authorization = `Basic ${btoa(credentials)}`
    url.username = ''
    url.password = ''
    return { href: url.toString(), headers }
  } catch {
    return { href: target, headers }
  }
}
