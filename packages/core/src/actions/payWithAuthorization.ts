import { transferWithAuthorizationTypes } from '@paysession/protocol'
import { getConnectorClient } from '@wagmi/core'
import { type Hex, toHex } from 'viem'
import { signTypedData } from 'viem/actions'
import { type TokenFacts, tokenError } from '../chain/checkToken.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { type WalletErrorCode, walletError } from '../errors/wallet.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import { withPaymentLock } from '../utils/paymentLock.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { type FollowPaymentErrorCode, followPayment } from './followPayment.js'
import type { PayWithWalletParameters, PayWithWalletReturnType } from './payWithWallet.js'
import {
  type PreparePaymentErrorCode,
  preparePayment,
  startPaymentRecord,
} from './preparePayment.js'

export type PayWithAuthorizationParameters = PayWithWalletParameters & {
  /** The merchant's relay (`createRelayHandler` of `@paysession/server`). */
  relayUrl: string
  /** How long the signed authorization stays valid, in seconds. Default 600. */
  validForSeconds?: number | undefined
}
export type PayWithAuthorizationReturnType = PayWithWalletReturnType
export type PayWithAuthorizationErrorType = PaySessionError<
  | PreparePaymentErrorCode
  | WalletErrorCode
  | FollowPaymentErrorCode
  // The merchant's relay: unreachable, refused (its own code in `details`), or an unreadable answer.
  | 'API_UNAVAILABLE'
  | 'API_ERROR'
  | 'INVALID_RESPONSE'
>

/**
 * Pays without network fees (EIP-3009): the customer signs a `TransferWithAuthorization` of the
 * amount to the one-time wallet (`eth_signTypedData_v4`, no ETH needed), the merchant's relay
 * submits it and pays the gas. Then as `payWithWallet`: the hash is reported, the receipt awaited
 * and the Transfer verified. Never twice: the record written before the prompt keeps blocking a
 * new payment until the authorization expires, unless the chain shows the transfer.
 * @example await payWithAuthorization(config, { session, sessionToken, token: 'USDC', relayUrl: '/relay' })
 */
export async function payWithAuthorization(
  config: PaySessionConfig,
  parameters: PayWithAuthorizationParameters,
): Promise<PayWithAuthorizationReturnType> {
  const payment = await preparePayment(config, parameters)
  const { account, network, token, to, amount } = payment
  if (!token.eip3009)
    throw new PaySessionError('UNSUPPORTED_TOKEN', {
      details: `${token.symbol} on ${network.name} has no EIP-3009 authorizations`,
    })
  // The EIP-712 domain differs between deployments ("USD Coin", "USDC"...): the token's own, read
  // on chain with the offer, and the registry's where it pins one, must agree.
  const { name, version } = tokenDomain(network, token, payment.facts)
  const message = {
    from: account,
    to,
    value: amount,
    validAfter: 0n,
    validBefore: payment.now + BigInt(parameters.validForSeconds ?? 600),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
  const sessionId = parameters.session.paymentSessionId
  // Never twice across pages: the session's lock from reading the record to the signature.
  let record!: PaymentRecord
  const signature = await withPaymentLock(sessionId, async () => {
    record = startPaymentRecord(config, sessionId, payment, message.validBefore)
    parameters.onPrompt?.()
    try {
      return await sign()
    } catch (error) {
      // No signature left this page: nothing can move.
      clearPaymentRecord(config.storage, sessionId)
      throw walletError(error)
    }
  })
  async function sign(): Promise<Hex> {
    const wallet = await getConnectorClient(config.wagmiConfig, {
      account,
      chainId: network.chainId,
    })
    return signTypedData(wallet, {
      account,
      domain: { name, version, chainId: network.chainId, verifyingContract: token.address },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
    })
  }

  let hash: Hex
  try {
    hash = await submit(config, parameters, message, signature)
  } catch (error) {
    // Refused: the relay did not submit it. Otherwise it may have: the record blocks until expiry.
    if (error instanceof PaySessionError && error.code === 'API_ERROR')
      clearPaymentRecord(config.storage, sessionId)
    else writePaymentRecord(config.storage, { ...record, state: 'ended' })
    throw error
  }
  return followPayment(config, parameters, payment, record, hash, undefined)
}

/**
 * The EIP-712 domain to sign for: the token's own, read on chain with the offer, which must be
 * the registry's `eip712` where it gives one; `INVALID_CONFIG` otherwise, before the prompt.
 */
export function tokenDomain(network: NetworkInfo, token: StablecoinInfo, facts: TokenFacts) {
  const { domain } = facts
  const pinned = token.eip712
  if (!domain || (pinned && (pinned.name !== domain.name || pinned.version !== domain.version)))
    throw tokenError(network, token, `EIP-712 domain ${JSON.stringify(domain)}`)
  return domain
}

async function submit(
  config: PaySessionConfig,
  parameters: PayWithAuthorizationParameters,
  message: Record<string, bigint | string>,
  signature: Hex,
): Promise<Hex> {
  let response: Response
  let body: { transactionHash?: unknown; error?: { code?: string; message?: string } } | undefined
  try {
    response = await config.fetch(parameters.relayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        paymentSessionId: parameters.session.paymentSessionId,
        token: parameters.token,
        // Integers as decimal strings: JSON numbers would lose precision.
        authorization: Object.fromEntries(
          Object.entries(message).map(([key, value]) => [key, String(value)]),
        ),
        signature,
      }),
      signal: AbortSignal.timeout(config.requestTimeout * 4),
    })
    body = await response.json().catch(() => undefined)
  } catch (error) {
    throw new PaySessionError('API_UNAVAILABLE', { details: 'relay', cause: error })
  }
  if (response.ok && isTransactionHash(body?.transactionHash)) return body.transactionHash
  const code = body?.error?.code
  // A 4xx with a code is a refusal (nothing submitted), except "already relayed" for this session.
  if (response.status < 500 && code && code !== 'ALREADY_RELAYED')
    throw new PaySessionError('API_ERROR', {
      shortMessage: body?.error?.message,
      details: `relay: ${code}`,
      status: response.status,
    })
  throw new PaySessionError(response.ok ? 'INVALID_RESPONSE' : 'API_UNAVAILABLE', {
    details: `relay: ${response.status} ${code ?? ''}`,
    status: response.status,
  })
}
