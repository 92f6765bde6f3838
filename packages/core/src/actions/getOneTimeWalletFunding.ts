import { getClient } from '@wagmi/core'
import { type Address, isAddress } from 'viem'
import type { PaymentSession } from '../api/session.js'
import { getTokenBalance } from '../chain/erc20.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { resolveSessionAssets } from '../registry/registry.js'
import { parseAmount } from '../utils/amounts.js'

export type GetOneTimeWalletFundingParameters = {
  session: Pick<
    PaymentSession,
    'amount' | 'network' | 'tokenSymbol' | 'acceptedTokens' | 'oneTimeWalletAddress'
  >
}
export type GetOneTimeWalletFundingReturnType = {
  /** The one-time wallet holds the amount in one accepted token. */
  received: boolean
  /** That token's symbol. */
  token?: string | undefined
  /** Balance per accepted token, in base units. */
  balances: Record<string, bigint>
}

export type GetOneTimeWalletFundingErrorType = PaySessionError<
  'INVALID_ADDRESS' | 'UNSUPPORTED_NETWORK' | 'UNSUPPORTED_TOKEN' | 'CHAIN_UNAVAILABLE'
>

/**
 * Reads the session's one-time wallet balances from the chain, without the service: what the
 * checkout still knows when the service refuses its session token. Received when one accepted
 * token covers the amount (the service funds a session the same way).
 * @example const { received } = await getOneTimeWalletFunding(config, { session })
 */
export async function getOneTimeWalletFunding(
  config: PaySessionConfig,
  parameters: GetOneTimeWalletFundingParameters,
): Promise<GetOneTimeWalletFundingReturnType> {
  const { session } = parameters
  const otw = session.oneTimeWalletAddress
  if (!otw || !isAddress(otw))
    throw new PaySessionError('INVALID_ADDRESS', { details: `one-time wallet ${otw}` })
  const { network, tokens } = resolveSessionAssets(config.registry, session)
  const client = getClient(config.wagmiConfig, { chainId: network.chainId })
  if (!client) throw new PaySessionError('UNSUPPORTED_NETWORK', { details: network.name })
  let values: bigint[]
  try {
    values = await Promise.all(
      tokens.map((token) => getTokenBalance(client, token.address, otw as Address)),
    )
  } catch (error) {
    throw new PaySessionError('CHAIN_UNAVAILABLE', {
      details: (error as { shortMessage?: string })?.shortMessage ?? String(error),
      cause: error,
    })
  }
  const paid = tokens.find((token, i) => values[i]! >= parseAmount(session.amount, token.decimals))
  return {
    received: !!paid,
    token: paid?.symbol,
    balances: Object.fromEntries(tokens.map((token, i) => [token.symbol, values[i]!])),
  }
}
