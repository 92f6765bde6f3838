import {
  BodyTooLargeError,
  checkUrl,
  isPaySessionError,
  merchantError,
  type PaySessionError,
  readBody,
} from '@paysession/protocol'
import {
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  type FacilitatorClient,
} from '@x402/core/http'
import type { PaymentRequired, SettleResponse } from '@x402/core/types'
import type { PaymentSession } from '../client/types.js'
import { createClientIp, ipRateLimitKey } from '../http/clientIp.js'
import { createSettlement } from '../relay/createRelay.js'
import { relayError } from '../relay/errors.js'
import type { RelayHandlerOptions } from '../relay/options.js'
import { resolveHandlerOptions } from '../relay/options.js'
import { type FacilitatorPayment, facilitatorSender } from '../relay/senders/facilitator.js'
import { relayerSender } from '../relay/senders/relayer.js'
import { caip2, createTokenBook } from './paymentRequirements.js'
import { readPayment, readRelayBody } from './readPayment.js'
import type { X402Claim } from './types.js'

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
  /**
   * The validity window x402 clients sign for, in seconds. Default 300 (or `maxValiditySeconds`
   * when shorter).
   */
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
  if (!options.store || typeof options.store.compareAndSet !== 'function')
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
  // The URL rule of every other setting: https, or http to this machine, without credentials.
  if (typeof facilitator === 'string') checkUrl(facilitator, 'facilitator')
  const book = createTokenBook(options.networks)
  // Never longer than the relay accepts: a client signs for exactly this window.
  const maxTimeoutSeconds =
    options.maxTimeoutSeconds ?? Math.min(300, options.maxValiditySeconds ?? 3600)
  const { maxBodyBytes, rateLimit } = resolveHandlerOptions(options as RelayHandlerOptions)
  const clientIp = options.clientIp ?? createClientIp(options.trustProxy)
  // One pipeline, whichever sends: the relay's rules and claims, with the relayer's keys or the
  // facilitator.
  const settlement = createSettlement<FacilitatorPayment>(
    options,
    (resolved) =>
      facilitator
        ? facilitatorSender(facilitator, async ({ session, network, token }) => {
            const due = await book.requirementsFor(session, maxTimeoutSeconds)
            const match = due.accepts.find(
              (a) => due.network === network.name && a.token.address === token.address,
            )
            if (!match)
              throw relayError('UNSUPPORTED_TOKEN', {
                details: `${token.address} on ${due.network}`,
              })
            return match.requirements
          })
        : relayerSender(resolved),
    { withoutRelayer: !!facilitator },
  )
  const settle = async (claim: X402Claim & { relayed: boolean }) => {
    // The checkout's gasless request names only the symbol; an x402 payment its network too.
    const candidate = claim.candidates[0]
    if (!candidate) throw relayError('RELAY_REFUSED', { details: 'no network relays the token' })
    const sent = await settlement.settle({
      sessionId: claim.sessionId,
      token: candidate.symbol,
      network: claim.relayed ? undefined : candidate.network,
      authorization: claim.authorization,
      signature: claim.signature,
      payloadFor: claim.payloadFor,
    })
    return { transaction: sent.transactionHash, sessionId: sent.sessionId }
  }
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

  /**
   * The payment a request carries, parsed, with the merchant's tokens it may be in (found
   * without any call): x402's `PAYMENT-SIGNATURE`, or the checkout's gasless request (`relay-url`
   * naming this endpoint). `undefined` when it carries none.
   */
  async function claimOf(
    request: Request,
  ): Promise<(X402Claim & { relayed: boolean }) | undefined> {
    const payment = readPayment(request)
    if (payment) {
      const id = sessionIdOf(request)
      if (!id || id.length > 200) throw relayError('RELAY_REFUSED', { details: 'no session id' })
      const { accepted } = payment.payload
      return {
        sessionId: id,
        candidates: book.candidatesFor({
          network: String(accepted.network),
          asset: String(accepted.asset),
        }),
        authorization: payment.authorization,
        signature: payment.signature,
        payloadFor: () => payment.payload,
        relayed: false,
      }
    }
    if (request.method !== 'POST' || !/json/.test(request.headers.get('content-type') ?? ''))
      return undefined
    const body = readRelayBody(await readLimited(request))
    return {
      sessionId: body.sessionId,
      candidates: book.candidatesFor({ symbol: body.token }),
      authorization: body.authorization,
      signature: body.signature,
      payloadFor: (requirements) => body.paymentFor(requirements).payload,
      relayed: true,
    }
  }

  return async function handleX402(request: Request): Promise<Response> {
    let network: string | undefined
    let paid: 'x402' | 'relayed' | undefined
    try {
      if (request.method === 'OPTIONS' && options.allowOrigin)
        return new Response(null, { status: 204, headers: cors })
      if (request.method !== 'GET' && request.method !== 'POST')
        throw relayError('METHOD_NOT_ALLOWED')
      const ip = clientIp(request)
      if (rateLimit && !(await rateLimit(ipRateLimitKey(ip))))
        throw relayError('RATE_LIMITED', {
          details: ip ? `ip ${ip}` : 'ip unknown: set trustProxy',
        })
      const claim = await claimOf(request)
      if (claim) {
        if (rateLimit && !(await rateLimit(`session:${claim.sessionId}`)))
          throw relayError('RATE_LIMITED', { details: `session ${claim.sessionId}` })
        paid = claim.relayed ? 'relayed' : 'x402'
        const chainId = claim.candidates[0]?.chainId
        network = chainId === undefined ? undefined : caip2(chainId)
        const { transaction, sessionId } = await settle(claim)
        return settled(transaction, sessionId, claim.authorization.from, claim.relayed)
      }

      const id = sessionIdOf(request)
      if (!id || id.length > 200) throw relayError('RELAY_REFUSED', { details: 'no session id' })
      const session = await readSession(id)
      const due = await book.requirementsFor(session, maxTimeoutSeconds)
      const required: PaymentRequired = {
        x402Version: 2,
        error: 'PAYMENT-SIGNATURE header is required',
        resource: {
          url: request.url,
          description: `Payment session ${session.paymentSessionId}`,
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
    } catch (thrown) {
      const error: PaySessionError = isPaySessionError(thrown)
        ? thrown
        : relayError('RELAY_UNAVAILABLE', { cause: thrown })
      options.onRejected?.(error, { request })
      const status = error.status ?? 503
      const failure: Record<string, string> =
        paid === 'x402' && network
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
