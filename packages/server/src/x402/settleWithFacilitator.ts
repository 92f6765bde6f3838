import { eip3009Abi } from '@paysession/protocol'
import { type FacilitatorClient, HTTPFacilitatorClient } from '@x402/core/http'
import { SettleError, type SettleResponse, VerifyError } from '@x402/core/types'
import { type Address, isAddress, isAddressEqual } from 'viem'
import type { PaymentSession } from '../client/types.js'
import { checkAuthorization } from '../relay/checkOffline.js'
import { assertPayerPolicy } from '../relay/contractPayers.js'
import { type RelayErrorCode, relayError } from '../relay/errors.js'
import type { RelayOptions } from '../relay/options.js'
import type { RelayStore } from '../relay/types.js'
import type { createTokenBook } from './paymentRequirements.js'
import type { X402Settle } from './types.js'

export type FacilitatorSettlementOptions = {
  /** The facilitator's URL (its `/verify` and `/settle`), or an `@x402/core` facilitator client. */
  facilitator: string | FacilitatorClient
  /** The relay's store: one payment per session, whichever route settles it. */
  store: RelayStore
  contractPayers?: Address[] | ((address: Address) => boolean | Promise<boolean>)
  maxValiditySeconds?: number
  minValiditySeconds?: number
  book: ReturnType<typeof createTokenBook>
  readSession: (id: string) => Promise<PaymentSession>
  maxTimeoutSeconds: number
  /** Called once the facilitator settled a payment, as the relay calls it once it sent one. */
  onRelayed?: RelayOptions['onRelayed']
}

/**
 * Settlement through an x402 facilitator reached by URL, after the relay's rules, run here in
 * the relay's order: the offline checks first (the validity window against this machine's
 * clock, the signature recovered for the token's domain, a contract payer only when allowed),
 * then the session (the recipient is its one-time wallet, the amount what it still owes), the
 * chain's clock, the nonce, once per session through the store; then the facilitator verifies
 * and settles from its own key, paying the gas.
 */
export function settleWithFacilitator(options: FacilitatorSettlementOptions): X402Settle {
  const facilitator =
    typeof options.facilitator === 'string'
      ? new HTTPFacilitatorClient({ url: options.facilitator })
      : options.facilitator
  const { store, book } = options
  const maxValidity = BigInt(options.maxValiditySeconds ?? 3600)
  const minValidity = BigInt(options.minValiditySeconds ?? 30)

  const locks = new Map<string, Promise<unknown>>()
  async function exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = locks.get(key) ?? Promise.resolve()
    const run = before.catch(() => undefined).then(work)
    locks.set(key, run)
    try {
      return await run
    } finally {
      if (locks.get(key) === run) locks.delete(key)
    }
  }

  return async (claim) => {
    const { authorization: auth } = claim
    // Offline, the relay's own checks: the same answer for all of it, before any call.
    const signed = await checkAuthorization(
      { minValidity, maxValidity, contractPayers: options.contractPayers },
      claim,
      claim.candidates,
      async (candidate) => {
        const token = await candidate.token()
        return {
          name: token.name,
          version: token.version,
          chainId: candidate.chainId,
          verifyingContract: token.address,
        }
      },
    )

    const session = await options.readSession(claim.sessionId)
    const otw = session.oneTimeWalletAddress
    if (!otw || !isAddress(otw, { strict: false }) || !isAddressEqual(otw, auth.to))
      refuse('to is not the session’s one-time wallet')
    const sessionId = session.paymentSessionId
    // One payment at a time per session in this process; the store holds it across processes.
    return exclusively(sessionId, async () => {
      const same = (record: { from: Address; nonce: string }) =>
        record.nonce === auth.nonce && isAddressEqual(record.from, auth.from)
      const previous = (await store.get(sessionId)) ?? undefined
      // The same payment again (a retried request): its settlement, even once the session is paid.
      if (previous?.hash && same(previous)) return { transaction: previous.hash, sessionId }

      const due = await book.requirementsFor(session, options.maxTimeoutSeconds)
      const candidate = claim.candidates.find((c) => c.network === due.network)
      const match = candidate && due.accepts.find(({ token }) => token.symbol === candidate.symbol)
      if (!candidate || !match)
        throw relayError('UNSUPPORTED_TOKEN', {
          details: `${claim.candidates.map((c) => c.symbol)[0]} on ${due.network}`,
        })
      const { requirements, token } = match
      if (signed.length > 0 && !signed.includes(candidate)) refuse(`not signed for ${due.network}`)

      const chain = book.clientOf(due.network)
      const block = await chain.getBlock().catch((error) => {
        throw relayError('RELAY_UNAVAILABLE', { details: 'latest block', cause: error })
      })
      if (auth.validAfter >= block.timestamp) throw relayError('AUTHORIZATION_NOT_YET_VALID')
      if (auth.validBefore < block.timestamp + minValidity)
        throw relayError('AUTHORIZATION_EXPIRED')
      if (auth.validBefore > block.timestamp + maxValidity)
        throw relayError('AUTHORIZATION_TOO_LONG')
      // A payer with code (a contract, an EIP-7702 delegation) only when listed.
      await assertPayerPolicy(options, chain, auth.from)
      if (auth.value !== BigInt(requirements.amount))
        throw relayError('WRONG_AMOUNT', {
          details: `${auth.value} units, the session owes ${requirements.amount}`,
        })
      // A settled payment moved the money (the facilitator answers once it is mined); one whose
      // outcome is unknown blocks another until it can no longer be mined.
      if (
        previous &&
        !same(previous) &&
        (previous.hash || BigInt(previous.validBefore) > block.timestamp)
      )
        throw relayError('ALREADY_RELAYED')
      const used = await chain
        .readContract({
          address: token.address,
          abi: eip3009Abi,
          functionName: 'authorizationState',
          args: [auth.from, auth.nonce],
        })
        .catch((error) => {
          throw relayError('RELAY_UNAVAILABLE', { details: 'authorizationState', cause: error })
        })
      if (used) throw relayError('AUTHORIZATION_USED')

      // Claimed before the facilitator is asked: of payments racing on any number of
      // instances, the store's atomic claim lets one through.
      const record = {
        from: auth.from,
        nonce: auth.nonce,
        validBefore: auth.validBefore.toString(),
        network: due.network,
        token: token.address,
        fromBlock: block.number.toString(),
        claimedAt: Date.now(),
      }
      if (!(await store.claim(sessionId, record, previous))) throw relayError('ALREADY_RELAYED')
      const payload = claim.payloadFor(requirements)
      // A facilitator answers a refusal as a 4xx that the client throws as VerifyError/SettleError.
      const verified = await facilitator.verify(payload, requirements).catch(async (error) => {
        if (error instanceof VerifyError) return { isValid: false, ...error }
        await store.release(sessionId, record)
        throw relayError('RELAY_UNAVAILABLE', { details: 'facilitator /verify', cause: error })
      })
      if (!verified.isValid) {
        await store.release(sessionId, record)
        throw refusalOf(verified.invalidReason, verified.invalidMessage)
      }
      let settled: SettleResponse
      try {
        settled = await facilitator.settle(payload, requirements)
      } catch (error) {
        if (!(error instanceof SettleError))
          // No answer: it may have been sent, so the record stays and blocks another payment.
          throw relayError('RELAY_UNAVAILABLE', { details: 'facilitator /settle', cause: error })
        settled = { ...error, success: false }
      }
      if (!settled.success || !/^0x[0-9a-fA-F]{64}$/.test(settled.transaction)) {
        // The facilitator answered that nothing was sent: the session stays payable.
        if (!settled.transaction) await store.release(sessionId, record)
        throw refusalOf(settled.errorReason, settled.errorMessage)
      }
      const transaction = settled.transaction as `0x${string}`
      await store.set(sessionId, { ...record, hash: transaction })
      options.onRelayed?.({
        sessionId,
        paymentSessionId: sessionId,
        transactionHash: transaction,
        authorization: auth,
      })
      return { transaction, sessionId }
    })
  }
}

/** The one answer for what fails before the caller is known to hold the session. */
function refuse(details: string): never {
  throw relayError('RELAY_REFUSED', { details })
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
