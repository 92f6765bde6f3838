import { type FacilitatorClient, HTTPFacilitatorClient } from '@x402/core/http'
import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
  VerifyError,
} from '@x402/core/types'
import {
  type Hex,
  isAddressEqual,
  parseEventLogs,
  WaitForTransactionReceiptTimeoutError,
} from 'viem'
import { type RelayErrorCode, relayError } from '../errors.js'
import type { Payment } from '../parseRequest.js'
import { notSent, type SendContext, type Sender } from './sender.js'

/** How long a facilitator's transaction may take to show its receipt before it is doubted. */
const receiptTimeoutMs = 30_000

const authorizationUsed = [
  {
    type: 'event',
    name: 'AuthorizationUsed',
    inputs: [
      { name: 'authorizer', type: 'address', indexed: true },
      { name: 'nonce', type: 'bytes32', indexed: true },
    ],
  },
] as const

/** A payment a facilitator settles: with its x402 payload for the requirements it is asked. */
export type FacilitatorPayment = Payment & {
  payloadFor: (requirements: PaymentRequirements) => PaymentPayload
}

type Prepared = { requirements: PaymentRequirements; payload: PaymentPayload }

/**
 * An x402 facilitator as a sender: it verifies and settles from its own key, paying the gas. The
 * claim names it before `/settle` is called, so until the authorization is used or expires no
 * other payment is sent for the session, whatever the facilitator answers. Its answer is not
 * believed as given: the transaction it names must show, on chain, this authorization used.
 * `requirementsOf` gives x402's requirements for what the session owes in the token.
 */
export function facilitatorSender(
  facilitator: string | FacilitatorClient,
  requirementsOf: (context: SendContext<FacilitatorPayment>) => Promise<PaymentRequirements>,
): Sender<Prepared, FacilitatorPayment> {
  const client =
    typeof facilitator === 'string' ? new HTTPFacilitatorClient({ url: facilitator }) : facilitator
  const name = typeof facilitator === 'string' ? facilitator : 'facilitator client'

  return {
    async prepare(context) {
      const requirements = await requirementsOf(context)
      const payload = context.payment.payloadFor(requirements)
      // A facilitator answers a refusal as a 4xx that its client throws as VerifyError.
      const verified = await client.verify(payload, requirements).catch((error) => {
        if (error instanceof VerifyError) return { isValid: false, ...error }
        throw relayError('RELAY_UNAVAILABLE', { details: 'facilitator /verify', cause: error })
      })
      if (!verified.isValid) throw refusalOf(verified.invalidReason, verified.invalidMessage)
      return { requirements, payload }
    },

    async send(context, { requirements, payload }, mark): Promise<Hex> {
      await mark({ facilitator: name })
      let settled: SettleResponse
      try {
        settled = await client.settle(payload, requirements)
      } catch (error) {
        // No answer: it may have been sent, so the claim stays and blocks another payment.
        if (!(error instanceof SettleError))
          throw relayError('RELAY_UNAVAILABLE', { details: 'facilitator /settle', cause: error })
        settled = { ...error, success: false }
      }
      const hash = /^0x[0-9a-fA-F]{64}$/.test(settled.transaction ?? '')
        ? (settled.transaction as Hex)
        : undefined
      if (!settled.success || !hash) {
        const refusal = refusalOf(settled.errorReason, settled.errorMessage)
        // It answered that nothing was sent: the session stays payable. A transaction named
        // with a failure may still be mined: the claim stays until it can no longer be.
        throw settled.transaction ? refusal : notSent(refusal)
      }
      await assertPays(context, hash)
      return hash
    },
  }
}

/** The facilitator's transaction, mined, used this authorization (so it moved the money). */
async function assertPays({ network, token, payment }: SendContext, hash: Hex): Promise<void> {
  const receipt = await network.publicClient
    .waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
    .catch((error) => {
      const details =
        error instanceof WaitForTransactionReceiptTimeoutError
          ? `the facilitator's transaction ${hash} is not mined yet`
          : `the facilitator's transaction ${hash}`
      throw relayError('RELAY_UNAVAILABLE', { details, cause: error })
    })
  const { from, nonce } = payment.authorization
  const used = parseEventLogs({ abi: authorizationUsed, logs: receipt.logs }).some(
    (log) =>
      isAddressEqual(log.address, token.address) &&
      isAddressEqual(log.args.authorizer, from) &&
      log.args.nonce === nonce,
  )
  if (receipt.status !== 'success' || !used)
    throw relayError('RELAY_UNAVAILABLE', {
      details: `the facilitator's transaction ${hash} did not use the authorization`,
    })
}

/** The relay's code for a facilitator's reason (x402's `invalid_exact_evm_*` names). */
function refusalOf(reason = '', message = '') {
  const code: RelayErrorCode = /nonce_already_used/.test(reason)
    ? 'AUTHORIZATION_USED'
    : /insufficient_balance|insufficient_funds/.test(reason)
      ? 'INSUFFICIENT_BALANCE'
      : /signature/.test(reason)
        ? 'INVALID_SIGNATURE'
        : /valid_before/.test(reason)
          ? 'AUTHORIZATION_EXPIRED'
          : /valid_after/.test(reason)
            ? 'AUTHORIZATION_NOT_YET_VALID'
            : /value|amount/.test(reason)
              ? 'WRONG_AMOUNT'
              : /recipient|network|scheme|asset|payload/.test(reason)
                ? 'RELAY_REFUSED'
                : 'RELAY_UNAVAILABLE'
  return relayError(code, { details: `facilitator: ${reason} ${message}`.trim() })
}
