import { isPaySessionError, merchantError, type PaySessionError } from '@paysession/protocol'
import {
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  type FacilitatorClient,
} from '@x402/core/http'
import type { PaymentRequired, SettleResponse } from '@x402/core/types'
import { isAddressEqual } from 'viem'
import type { PaymentSession } from '../client/types.js'
import { BodyTooLargeError, clientAddressOf, readBody } from '../http/readBody.js'
import type { RelayHandlerOptions } from '../relay/createRelayHandler.js'
import { relayError } from '../relay/errors.js'
import { createTokenBucketRateLimit } from '../relay/rateLimit.js'
import { caip2, createTokenBook } from './paymentRequirements.js'
import { readPayment, readRelayBody } from './readPayment.js'
import { settleWithFacilitator } from './settleWithFacilitator.js'
import { settleWithRelay } from './settleWithRelay.js'

export type X402HandlerOptions = Omit<RelayHandlerOptions, 'relayer'> & {
  /** The merchant's relayer, as for the relay: payments are sent from it. */
  relayer?: RelayHandlerOptions['relayer']
  /**
   * An x402 facilitator instead of a relayer: its URL (it answers `/verify` and `/settle`) or
   * an `@x402/core` facilitator client. It pays the gas and sends the transfer.
   */
  facilitator?: string | FacilitatorClient
  /** The session a request pays. Default: the `session` query parameter. */
  sessionIdOf?: (request: Request) => string | null | undefined
  /** The payment's validity window x402 clients sign for, in seconds. Default 300. */
  maxTimeoutSeconds?: number
}

/** A web-standard handler: a Fetch `Request` in, a `Response` out (see `toNodeListener`). */
export type X402Handler = (request: Request) => Promise<Response>

/**
 * An x402 endpoint for payment sessions: software (an agent, a script) pays a session over
 * HTTP. Without a payment it answers `402` with x402's `exact` requirements for what the session
 * still owes (its network as CAIP-2, the token and its EIP-712 domain, `payTo` = the one-time
 * wallet, the amount in units, a validity window). With one (`PAYMENT-SIGNATURE`, an EIP-3009
 * authorization) it applies the relay's rules and settles, through the merchant's relay
 * (`relayer`) or an x402 facilitator (`facilitator`), and answers `200` with x402's
 * `PAYMENT-RESPONSE` carrying the transaction hash. The session then funds like any other.
 * A refusal is the relay's: `{ "error": { "code", "message" } }` with its status.
 *
 * @example
 * const x402 = createX402Handler({ client, relayer, networks, store }) // the relay's options
 * app.all('/x402', toNodeListener(x402)) // GET /x402?session=ps_…
 */
export function createX402Handler(options: X402HandlerOptions): X402Handler {
  if (!options.store || typeof options.store.get !== 'function')
    throw merchantError('INVALID_CONFIG', {
      shortMessage: 'The x402 endpoint needs the relay’s durable store: pass store.',
      details: 'It keeps one payment per session, whichever route settles it.',
      docsPath: 'docs/x402.md#what-a-merchant-turns-on',
    })
  const { relayer, facilitator } = options
  if (!relayer === !facilitator)
    throw merchantError('INVALID_CONFIG', {
      shortMessage: 'The x402 endpoint settles through a relayer or a facilitator: pass one.',
      docsPath: 'docs/x402.md#what-a-merchant-turns-on',
    })
  const store = options.store
  const book = createTokenBook(options.networks)
  const maxTimeoutSeconds = options.maxTimeoutSeconds ?? 300
  const rateLimit =
    options.rateLimit === false ? undefined : (options.rateLimit ?? createTokenBucketRateLimit())
  const clientIp = options.clientIp ?? clientAddressOf
  const settle = relayer
    ? settleWithRelay({ ...options, relayer })
    : settleWithFacilitator({ ...options, facilitator: facilitator!, clientOf: book.clientOf })
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024
  async function readLimited(request: Request): Promise<Uint8Array> {
    try {
      return await readBody(request, maxBodyBytes)
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        throw relayError('PAYLOAD_TOO_LARGE', { details: error.message })
      throw relayError('RELAY_REFUSED', { details: 'the body could not be read', cause: error })
    }
  }
  const sessionIdOf =
    options.sessionIdOf ?? ((request: Request) => new URL(request.url).searchParams.get('session'))
  const cors: Record<string, string> = options.allowOrigin
    ? {
        'access-control-allow-origin': options.allowOrigin,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers':
          'content-type, payment-signature, x-payment, access-control-expose-headers',
        'access-control-expose-headers': 'payment-required, payment-response',
        vary: 'origin',
      }
    : {}

  async function readSession(id: string): Promise<PaymentSession> {
    const token = await options.sessionTokenOf?.(id)
    try {
      if (token)
        try {
          return await options.client.getSession(id, { sessionToken: token })
        } catch (error) {
          if (!isPaySessionError(error, 'SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED', 'FORBIDDEN'))
            throw error
        }
      return await options.client.getSession(id)
    } catch (error) {
      if (isPaySessionError(error, 'NOT_FOUND', 'SESSION_NOT_FOUND'))
        throw relayError('RELAY_REFUSED', { details: 'the service does not know the session' })
      throw relayError('RELAY_UNAVAILABLE', { details: 'reading the session', cause: error })
    }
  }

  return async function handleX402(request: Request): Promise<Response> {
    let network: string | undefined
    let paid = false
    try {
      if (request.method === 'OPTIONS' && options.allowOrigin)
        return new Response(null, { status: 204, headers: cors })
      if (request.method !== 'GET' && request.method !== 'POST')
        throw relayError('METHOD_NOT_ALLOWED')
      const ip = clientIp(request)
      if (rateLimit && ip !== undefined && !(await rateLimit(`ip:${ip}`)))
        throw relayError('RATE_LIMITED', { details: `ip ${ip}` })
      const payment = readPayment(request)
      // The checkout's gasless request (`relay-url` naming this endpoint): the relay's body.
      const relayed =
        !payment &&
        request.method === 'POST' &&
        /json/.test(request.headers.get('content-type') ?? '')
          ? readRelayBody(await readLimited(request))
          : undefined
      const id = relayed?.sessionId ?? sessionIdOf(request)
      if (!id || id.length > 200) throw relayError('RELAY_REFUSED', { details: 'no session id' })
      const authorization = payment?.authorization ?? relayed?.authorization
      paid = authorization !== undefined
      if (paid && rateLimit && !(await rateLimit(`session:${id}`)))
        throw relayError('RATE_LIMITED', { details: `session ${id}` })
      const session = await readSession(id)
      const sessionId = session.paymentSessionId
      const chainId = options.networks[session.network?.toUpperCase() ?? '']?.chainId
      network = chainId === undefined ? undefined : caip2(chainId)

      // The same payment again (a retried request): its settlement, even once the session is paid.
      const previous = authorization && (await store.get(sessionId))
      if (
        authorization &&
        previous?.hash &&
        previous.nonce === authorization.nonce &&
        isAddressEqual(previous.from, authorization.from)
      )
        return settled(previous.hash, sessionId, authorization.from, !!relayed)

      const due = await book.requirementsFor(session, maxTimeoutSeconds)
      if (!authorization) {
        const required: PaymentRequired = {
          x402Version: 2,
          error: 'PAYMENT-SIGNATURE header is required',
          resource: {
            url: request.url,
            description: `Payment session ${sessionId}`,
            mimeType: 'application/json',
          },
          accepts: due.accepts.map((a) => a.requirements),
        }
        return new Response(JSON.stringify(required), {
          status: 402,
          headers: {
            ...cors,
            'content-type': 'application/json',
            'cache-control': 'no-store',
            'payment-required': encodePaymentRequiredHeader(required),
          },
        })
      }
      const accepted = payment?.payload.accepted
      const match = due.accepts.find(({ requirements, token }) =>
        accepted
          ? requirements.network === accepted.network &&
            requirements.asset.toLowerCase() === String(accepted.asset).toLowerCase()
          : token.symbol.toUpperCase() === relayed!.token.toUpperCase(),
      )
      if (!match)
        throw relayError('UNSUPPORTED_TOKEN', {
          details: accepted
            ? `${String(accepted.asset)} on ${String(accepted.network)}`
            : `${relayed!.token} on ${due.network}`,
        })
      const { transaction } = await settle({
        sessionId,
        network: due.network,
        token: match.token,
        requirements: match.requirements,
        payment: payment ?? relayed!.paymentFor(match.requirements),
      })
      return settled(transaction, sessionId, authorization.from, !!relayed)
    } catch (thrown) {
      const error: PaySessionError = isPaySessionError(thrown)
        ? thrown
        : relayError('RELAY_UNAVAILABLE', { cause: thrown })
      options.onRejected?.(error, { request })
      const status = error.status ?? 503
      const failure: Record<string, string> =
        paid && network
          ? {
              'payment-response': encodePaymentResponseHeader({
                success: false,
                errorReason: error.code,
                errorMessage: error.shortMessage,
                transaction: '',
                network: network as SettleResponse['network'],
              }),
            }
          : {}
      return new Response(
        JSON.stringify({ error: { code: error.code, message: error.shortMessage } }),
        {
          status,
          headers: {
            ...cors,
            ...failure,
            'content-type': 'application/json',
            ...(status === 405 ? { allow: 'GET, POST' } : {}),
          },
        },
      )
    }

    /** x402's settlement response; the relay's answer to the checkout's gasless request. */
    function settled(
      transaction: string,
      sessionId: string,
      payer: string,
      relayed: boolean,
    ): Response {
      if (relayed)
        return new Response(JSON.stringify({ transactionHash: transaction }), {
          headers: { ...cors, 'content-type': 'application/json' },
        })
      const response: SettleResponse = {
        success: true,
        transaction,
        network: network as SettleResponse['network'],
        payer,
      }
      return new Response(
        JSON.stringify({ paymentSessionId: sessionId, transactionHash: transaction, network }),
        {
          status: 200,
          headers: {
            ...cors,
            'content-type': 'application/json',
            'cache-control': 'no-store',
            'payment-response': encodePaymentResponseHeader(response),
          },
        },
      )
    }
  }
}
