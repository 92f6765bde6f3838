import { sleep } from '@paysession/protocol'
import { getCapabilities, getClient } from '@wagmi/core'
import type { Address, Client } from 'viem'
import { getBalance, getCode } from 'viem/actions'
import { checkToken } from '../chain/checkToken.js'
import { getTokenBalance } from '../chain/erc20.js'
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
  /**
   * The account has no native coin, and the network fee would come out of it: a plain account
   * (no contract code) whose wallet reports no paymaster for the network. A smart account (a
   * bundler, a Safe's executing owner or a relayer pays) or a sponsored wallet gets no warning.
   */
  gasWarning: boolean
}

export type GetStablecoinBalancesErrorType = PaySessionError<'CHAIN_UNAVAILABLE'>

/**
 * Reads the account's balance of each token (and of the native coin) on the session's network,
 * and checks each token's decimals on chain (`INVALID_CONFIG` when the registry is wrong).
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
    // Each token is checked against the chain (decimals) with the same round trip: a wrong
    // registry is refused before a balance is shown in its decimals, let alone a prompt.
    const [native, ...balances] = await Promise.all([
      getBalance(client, { address: account }),
      ...parameters.tokens.map((token) => getTokenBalance(client, token.address, account)),
      ...parameters.tokens.map((token) => checkToken(client, network, token)),
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
    const gasWarning = native === 0n && !(await feePaidElsewhere(config, client, account, chainId))
    return { tokens, nativeBalance: native!, gasWarning }
  } catch (error) {
    if (error instanceof PaySessionError) throw error
    throw chainUnavailable(config, network, error)
  }
}

/**
 * Whether someone other than the account's own balance may pay its network fee: the account is
 * a contract (a bundler, a Safe's executing owner or a relayer submits its calls), or the wallet
 * reports an EIP-5792 paymaster (ERC-7677 `paymasterService`) for this chain or for all chains
 * ("0x0"), as a sponsored smart wallet does even before its account is deployed. An EIP-7702
 * delegation (code `0xef0100…`) still pays from the account's own coin. Unknown counts as no:
 * only a warning depends on it, never the payment.
 */
async function feePaidElsewhere(
  config: PaySessionConfig,
  client: Client,
  account: Address,
  chainId: number,
): Promise<boolean> {
  const code = (await getCode(client, { address: account }).catch(() => undefined)) ?? '0x'
  if (code !== '0x' && !code.toLowerCase().startsWith('0xef0100')) return true
  // A wallet that never answers must not hold the token list: a second is plenty for a read.
  const caps = (await Promise.race([
    getCapabilities(config.wagmiConfig, { account }),
    sleep(config.polling.clock, 1_000).then(() => ({})),
  ]).catch(() => ({}))) as Record<number, Record<string, unknown>>
  const paymaster = (caps[chainId] ?? caps[0])?.paymasterService as
    | { supported?: unknown }
    | undefined
  return paymaster?.supported === true
}
