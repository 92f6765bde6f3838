import { isPaySessionError } from '@paysession/protocol'
import { createClientIp, ipRateLimitKey } from '../http/clientIp.js'
import { BodyTooLargeError, readBody } from '../http/readBody.js'
import { createRelay } from './createRelay.js'
import { relayError } from './errors.js'
import { type RelayHandlerOptions, resolveHandlerOptions } from './options.js'
import { parseRequest } from './parseRequest.js'

/** A web-standard handler: a Fetch `Request` in, a `Response` out (see `toNodeListener`). */
export type RelayHandler = (request: Request) => Promise<Response>

/**
 * The relay for gasless payments (EIP-3009): the checkout POSTs a customer's signed
 * `TransferWithAuthorization`, and the relay submits it from the merchant's relayer key, which
 * pays the gas.
 *
 * Cheap checks come first, without any call: the body (read up to `maxBodyBytes` while it
 * streams), the rate limit, the token, the validity window and the signature (recovered offline;
 * a contract payer only when allowed). Everything refused so far, and an unknown session or a
 * `to` that is not the session's one-time wallet, gets one answer, `RELAY_REFUSED`, so a
 * stranger learns nothing about sessions. Then `settle` (relay/settle.ts) applies the chain's
 * rules and sends once per session, decided by the store's claim across every instance.
 * A refusal is a `PaySessionError` answered as `{ "error": { "code", "message" } }`.
 *
 * Request: `POST { paymentSessionId, token, authorization: { from, to, value, validAfter,
 * validBefore, nonce }, signature }` (integers as decimal strings; `sessionId` is accepted in
 * place of `paymentSessionId`). Answer: `200 { transactionHash }` once sent (not yet mined).
 *
 * @example
 * const relay = createRelayHandler({
 *   client,
 *   relayer: process.env.RELAYER_KEY as Hex,
 *   networks: { BASE: { chainId: 8453, rpcUrl, tokens: { USDC: '0x8335…2913' }, maxFeePerGas: parseGwei('1') } },
 *   store: createPostgresRelayStore(postgres(process.env.DATABASE_URL)),
 * })
 * app.post('/relay', toNodeListener(relay))
 */
export function createRelayHandler(options: RelayHandlerOptions): RelayHandler {
  const relay = createRelay(options)
  const { maxBodyBytes, rateLimit } = resolveHandlerOptions(options)
  const clientIp = options.clientIp ?? createClientIp(options.trustProxy)
  const cors: Record<string, string> = options.allowOrigin
    ? {
        'access-control-allow-origin': options.allowOrigin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        vary: 'origin',
      }
    : {}

  return async function handleRelay(request: Request): Promise<Response> {
    try {
      if (request.method === 'OPTIONS' && options.allowOrigin)
        return new Response(null, { status: 204, headers: cors })
      if (request.method !== 'POST') throw relayError('METHOD_NOT_ALLOWED')
      const ip = clientIp(request)
      if (rateLimit && !(await rateLimit(ipRateLimitKey(ip))))
        throw relayError('RATE_LIMITED', {
          details: ip ? `ip ${ip}` : 'ip unknown: set trustProxy',
        })
      let bytes: Uint8Array
      try {
        bytes = await readBody(request, maxBodyBytes)
      } catch (error) {
        if (error instanceof BodyTooLargeError)
          throw relayError('PAYLOAD_TOO_LARGE', { details: error.message })
        throw relayError('RELAY_REFUSED', { details: 'the body could not be read', cause: error })
      }
      const body = parseRequest(bytes)
      if (rateLimit && !(await rateLimit(`session:${body.sessionId}`)))
        throw relayError('RATE_LIMITED', { details: `session ${body.sessionId}` })
      const { transactionHash } = await relay.settle(body)
      return json(200, { transactionHash }, cors)
    } catch (thrown) {
      const error = isPaySessionError(thrown)
        ? thrown
        : relayError('RELAY_UNAVAILABLE', { cause: thrown })
      options.onRejected?.(error, { request })
      const status = error.status ?? 503
      return json(
        status,
        { error: { code: error.code, message: error.shortMessage } },
        { ...cors, ...(status === 405 ? { allow: 'POST' } : {}) },
      )
    }
  }
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
