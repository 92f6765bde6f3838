import { createTransport, RpcRequestError, type Transport, UrlRequiredError } from 'viem'
import { getHttpRpcClient } from 'viem/utils'

/**
 * viem's `http` transport for the wagmi config core builds, without its request batching (off
 * by default there and never turned on here) and the scheduler that comes with it: 0.6 KB gzip
 * of the script-tag payment. Each request goes through viem's own HTTP JSON-RPC client, so
 * time-outs, basic-auth URLs, the response size limit and the typed errors are viem's, and the
 * transport's retries are viem's `buildRequest`.
 */
export function rpcTransport(
  url?: string | undefined,
  config: { timeout?: number | undefined } = {},
): Transport<'http'> {
  return ({ chain, retryCount, timeout: clientTimeout }) => {
    const timeout = clientTimeout ?? config.timeout ?? 10_000
    const target = url || chain?.rpcUrls.default.http[0]
    if (!target) throw new UrlRequiredError()
    const client = getHttpRpcClient(target, { timeout })
    return createTransport(
      {
        key: 'http',
        name: 'HTTP JSON-RPC',
        type: 'http',
        retryCount,
        timeout,
        async request({ method, params }, options) {
          const body = { method, params }
          const { error, result } = await client.request({
            body,
            ...(options?.signal ? { fetchOptions: { signal: options.signal } } : {}),
          })
          if (error) throw new RpcRequestError({ body, error, url: target })
          return result
        },
      },
      { fetchOptions: undefined, url: target },
    )
  }
}
