import { getClient } from '@wagmi/core'
import type { Address } from 'viem'
import { getNativeBalance, getTokenBalance } from '../chain/rpc.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { chainUnavailable } from '../errors/chain.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { formatAmount, parseAmount } from '../utils/amounts.js'

export type GetStablecoinBalancesParameters = {
  network: NetworkInfo
  tokens: readonly StablecoinInfo[]
  account: Address
  /** The amount to pay (decimal string): sets `sufficient` per token. */
  amount?: string | undefined
  locale?: string | undefined
}
export type StablecoinBalance = StablecoinInfo & {
  balance: bigint
  formattedBalance: string
  sufficient: boolean
}
export type GetStablecoinBalancesReturnType = {
  tokens: StablecoinBalance[]
  nativeBalance: bigint
  /** The account has no native coin to pay gas with. */
  gasWarning: boolean
}

/**
 * Reads the account's balance of each token (and of the native coin) on the session's network.
 * @example const { tokens } = await getStablecoinBalances(config, { network, tokens, account, amount: '10.00' })
 */
export async function getStablecoinBalances(
  config: PaySessionConfig,
  parameters: GetStablecoinBalancesParameters,
): Promise<GetStablecoinBalancesReturnType> {
  const { network, account, amount, locale } = parameters
  const chainId = network.chainId
  try {
    const client = getClient(config.wagmiConfig, { chainId })
    if (!client) throw chainUnavailable(config, network)
    const [native, ...balances] = await Promise.all([
      getNativeBalance(client, account),
      ...parameters.tokens.map((token) => getTokenBalance(client, token.address, account)),
    ])
    const tokens = parameters.tokens.map((token, i) => {
      const balance = balances[i] as bigint
      const needed = amount === undefined ? undefined : parseAmount(amount, token.decimals)
      return {
        ...token,
        balance,
        formattedBalance: formatAmount(balance, token.decimals, locale),
        sufficient: needed === undefined ? balance > 0n : balance >= needed,
      }
    })
    return { tokens, nativeBalance: native!, gasWarning: native === 0n }
  } catch (error) {
    if (error instanceof PaySessionError) throw error
    throw chainUnavailable(config, network, error)
  }
}
