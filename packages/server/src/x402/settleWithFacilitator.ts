import { eip3009Abi, transferWithAuthorizationTypes } from '@paysession/protocol'
import { type FacilitatorClient, HTTPFacilitatorClient } from '@x402/core/http'
import { SettleError, type SettleResponse, VerifyError } from '@x402/core/types'
import { type Address, isAddressEqual, type PublicClient, recoverTypedDataAddress } from 'viem'
import { type RelayErrorCode, relayError } from '../relay/errors.js'
import type { RelayStore } from '../relay/types.js'
import type { X402Settle } from './types.js'

export type FacilitatorSettlementOptions = {
  /** The facilitator's URL (its `/verify` and `/settle`), or an `@x402/core` facilitator client. */
  facilitator: string | FacilitatorClient
  /** The relay's store: one payment per session, whichever route settles it. */
  store: RelayStore
  contractPayers?: Address[] | ((address: Address) => boolean | Promise<boolean>)
  maxValiditySeconds?: number
  minValiditySeconds?: number
  /** The chain of a merchant's network, read for its clock. */
  clientOf: (network: string) => PublicClient
}

/**
 * Settlement through an x402 facilitator reached by URL: the relay's own checks run here (the
 * recipient, the amount, the validity window against the chain's clock, the signature with the
 * contract-payer policy, once per session through the store), then the facilitator verifies
 * (it also refuses a used nonce and a short balance) and settles from its own key.
 */
export function settleWithFacilitator(options: FacilitatorSettlementOptions): X402Settle {
  const facilitator =
    typeof options.facilitator === 'string'
      ? new HTTPFacilitatorClient({ url: options.facilitator })
      : options.facilitator
  const { store } = options
  const contractPayers = options.contractPayers ?? []
  const maxValidity = BigInt(options.maxValiditySeconds ?? 3600)
  const minValidity = BigInt(options.minValiditySeconds ?? 30)

  async function isAllowedContractPayer(address: Address): Promise<boolean> {
    return Array.isArray(contractPayers)
      ? contractPayers.some((allowed) => isAddressEqual(allowed, address))
      : await contractPayers(address)
  }

  return async ({ sessionId, network, token, requirements, payment }) => {
    const { authorization: auth, signature, payload } = payment
    if (!isAddressEqual(auth.to, requirements.payTo as Address))
      throw relayError('RELAY_REFUSED', { details: 'to is not the session’s one-time wallet' })
    const chainId = Number(requirements.network.split(':')[1])
    const signer = await recoverTypedDataAddress({
      domain: {
        name: token.name,
        version: token.version,
        chainId,
        verifyingContract: token.address,
      },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: auth,
      signature,
    }).catch(() => undefined)
    if (
      !(signer && isAddressEqual(signer, auth.from)) &&
      !(await isAllowedContractPayer(auth.from))
    )
      throw relayError('RELAY_REFUSED', {
        details: 'the signature is not the payer’s, and the payer is no allowed contract',
      })
    const chain = options.clientOf(network)
    const block = await chain.getBlock().catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'latest block', cause: error })
    })
    const now = block.timestamp
    if (auth.validAfter >= now) throw relayError('AUTHORIZATION_NOT_YET_VALID')
    if (auth.validBefore < now + minValidity) throw relayError('AUTHORIZATION_EXPIRED')
    if (auth.validBefore > now + maxValidity) throw relayError('AUTHORIZATION_TOO_LONG')
    if (auth.value !== BigInt(requirements.amount))
      throw relayError('WRONG_AMOUNT', {
        details: `${auth.value} units, the session owes ${requirements.amount}`,
      })

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

    const same = (record: { from: Address; nonce: string }) =>
      record.nonce === auth.nonce && isAddressEqual(record.from, auth.from)
    const previous = await store.get(sessionId)
    if (previous?.hash && same(previous)) return { transaction: previous.hash }
    // Without the relay's chain reads, an earlier payment blocks another until it expires.
    if (previous && !same(previous) && BigInt(previous.validBefore) > now)
      throw relayError('ALREADY_RELAYED')

    // Claimed before the facilitator is asked, so a second payment meanwhile is refused.
    await store.set(sessionId, {
      from: auth.from,
      nonce: auth.nonce,
      validBefore: auth.validBefore.toString(),
      network,
      token: token.address,
      fromBlock: block.number.toString(),
    })
    // A facilitator answers a refusal as a 4xx that the client throws as VerifyError/SettleError.
    const verified = await facilitator.verify(payload, requirements).catch(async (error) => {
      if (error instanceof VerifyError) return { isValid: false, ...error }
      await store.delete(sessionId)
      throw relayError('RELAY_UNAVAILABLE', { details: 'facilitator /verify', cause: error })
    })
    if (!verified.isValid) {
      await store.delete(sessionId)
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
      if (!settled.transaction) await store.delete(sessionId)
      throw refusalOf(settled.errorReason, settled.errorMessage)
    }
    const transaction = settled.transaction as `0x${string}`
    await store.set(sessionId, { ...(await store.get(sessionId))!, hash: transaction })
    return { transaction }
  }
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
