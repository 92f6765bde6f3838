import { isPlainId, transferWithAuthorizationTypes } from '@paysession/protocol'
import { isAddressEqual, recoverTypedDataAddress, zeroAddress } from 'viem'
import { isAllowedContractPayer } from './contractPayers.js'
import { relayError } from './errors.js'
import type { Network, TokenInfo } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import { type RelayRequest, refuse } from './parseRequest.js'

/**
 * The checks without any chain call: the amount and recipient are possible, the validity window
 * fits this machine's clock, and the payer's own key signed it (recovered) for the networks
 * returned, or the payer is an allowed contract payer (ERC-1271, checked by the token on chain).
 */
export async function checkOffline(
  options: ResolvedRelayOptions,
  networkOf: (name: string) => Network | undefined,
  request: RelayRequest,
): Promise<Network[]> {
  const { authorization: auth } = request
  const now = BigInt(Math.floor(Date.now() / 1000))
  // Against this machine's clock, with some slack; the chain's clock is checked later.
  const slack = 60n
  // `.` and `..` would be steps up the session's URL, which is read with the API key.
  if (!isPlainId(request.sessionId)) refuse('paymentSessionId is not a plain id')
  if (auth.value === 0n) refuse('value is 0')
  if (isAddressEqual(auth.to, zeroAddress)) refuse('to is the zero address')
  if (auth.validAfter > now + slack) refuse('validAfter is in the future')
  if (auth.validBefore < now + options.minValidity - slack) refuse('validBefore has passed')
  if (auth.validBefore > now + options.maxValidity + slack) refuse('validity window too long')
  const candidates = Object.keys(options.networks)
    .map(networkOf)
    .filter((n): n is Network => !!n && !!n.tokenOf(request.token))
  if (candidates.length === 0) refuse(`no network relays ${request.token}`)
  const signers: Network[] = []
  for (const network of candidates) {
    let token: TokenInfo
    try {
      token = await network.tokenOf(request.token)!
    } catch (error) {
      throw relayError('RELAY_UNAVAILABLE', { details: 'token domain', cause: error })
    }
    const signer = await recoverTypedDataAddress({
      domain: {
        name: token.name,
        version: token.version,
        chainId: network.chain.id,
        verifyingContract: token.address,
      },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: auth,
      signature: request.signature,
    }).catch(() => undefined)
    if (signer && isAddressEqual(signer, auth.from)) signers.push(network)
  }
  if (signers.length > 0) return signers
  if (await isAllowedContractPayer(options, auth.from)) return candidates
  return refuse('the signature is not the payer’s, and the payer is no allowed contract')
}
