import { isPlainId, transferWithAuthorizationTypes } from '@paysession/protocol'
import { isAddressEqual, recoverTypedDataAddress, type TypedDataDomain, zeroAddress } from 'viem'
import { isAllowedContractPayer } from './contractPayers.js'
import { relayError } from './errors.js'
import type { Network } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import { type Payment, type RelayRequest, refuse } from './parseRequest.js'

/**
 * The relay's checks without any chain call: the session id is a plain id, then
 * `checkAuthorization` on the networks that relay the token; returns those the payer signed for.
 */
export async function checkOffline(
  options: ResolvedRelayOptions,
  networkOf: (name: string) => Network | undefined,
  request: Payment,
): Promise<Network[]> {
  // `.` and `..` would be steps up the session's URL, which is read with the API key.
  if (!isPlainId(request.sessionId)) refuse('paymentSessionId is not a plain id')
  const candidates = Object.keys(options.networks)
    .map(networkOf)
    .filter((n): n is Network => !!n && !!n.tokenOf(request.token))
    .filter((n) => request.network === undefined || n.name === request.network)
  if (candidates.length === 0) refuse(`no network relays ${request.token}`)
  return checkAuthorization(options, request, candidates, async (network) => {
    const token = await network.tokenOf(request.token)!
    return {
      name: token.name,
      version: token.version,
      chainId: network.chain.id,
      verifyingContract: token.address,
    }
  })
}

/**
 * The checks of an authorization on its own, for every route that settles one (the relay, an
 * x402 facilitator): the amount and recipient are possible, the validity window fits this
 * machine's clock, and the payer's own key signed it (recovered) for some of the `candidates`
 * (each one's token domain from `domainOf`), or the payer is an allowed contract payer (ERC-1271,
 * checked by the token on chain). Returns the candidates signed for; all of them for a contract.
 */
export async function checkAuthorization<C>(
  options: Pick<ResolvedRelayOptions, 'minValidity' | 'maxValidity' | 'contractPayers' | 'clock'>,
  { authorization: auth, signature }: Pick<RelayRequest, 'authorization' | 'signature'>,
  candidates: C[],
  domainOf: (candidate: C) => Promise<TypedDataDomain>,
): Promise<C[]> {
  const now = BigInt(Math.floor(options.clock.now() / 1000))
  // Against this machine's clock, with some slack; the chain's clock is checked later.
  const slack = 60n
  if (auth.value === 0n) refuse('value is 0')
  if (isAddressEqual(auth.to, zeroAddress)) refuse('to is the zero address')
  if (auth.validAfter > now + slack) refuse('validAfter is in the future')
  if (auth.validBefore < now + options.minValidity - slack) refuse('validBefore has passed')
  if (auth.validBefore > now + options.maxValidity + slack) refuse('validity window too long')
  if (candidates.length === 0) refuse('no network relays the token')
  const signers: C[] = []
  for (const candidate of candidates) {
    const domain = await domainOf(candidate).catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'token domain', cause: error })
    })
    const signer = await recoverTypedDataAddress({
      domain,
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: auth,
      signature,
    }).catch(() => undefined)
    if (signer && isAddressEqual(signer, auth.from)) signers.push(candidate)
  }
  if (signers.length > 0) return signers
  if (await isAllowedContractPayer(options, auth.from)) return candidates
  return refuse('the signature is not the payer’s, and the payer is no allowed contract')
}
