import { getConnectorClient } from '@wagmi/core'
import type { Address, Hex } from 'viem'
import { sendCalls, waitForCallsStatus } from 'viem/actions'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import type { WalletErrorCode } from '../errors/wallet.js'

export type SendWithCallsParameters = {
  account: Address
  chainId: number
  call: { to: Address; data: Hex }
  /** What the wallet reported for this chain (`wallet_getCapabilities`). */
  capabilities?: { paymasterService?: unknown } | undefined
}
/** `sendWithCalls`, or a function that loads and calls it (`payWithWallet`'s `sendCalls`). */
export type SendWithCalls = (
  config: PaySessionConfig,
  parameters: SendWithCallsParameters,
) => Promise<Hex | undefined>

export type SendWithCallsErrorType = PaySessionError<WalletErrorCode | 'TRANSACTION_FAILED'>

/**
 * EIP-5792: sends the transfer as a one-call bundle (`wallet_sendCalls`) and follows
 * `wallet_getCallsStatus` to the transaction that carried it. Returns its hash, or `undefined`
 * while the bundle is still pending (a smart account's bundler, a multisig's other owners): the
 * caller then watches the chain. Loaded only for wallets that report EIP-5792 capabilities.
 */
export async function sendWithCalls(
  config: PaySessionConfig,
  parameters: SendWithCallsParameters,
): Promise<Hex | undefined> {
  // viem's actions on the wallet's client (wagmi's wrappers add nothing here but bytes).
  const client = await getConnectorClient(config.wagmiConfig, {
    account: parameters.account,
    chainId: parameters.chainId,
  })
  // ERC-7677: the merchant's paymaster, offered only to a wallet that says it can use one here.
  const paymaster = parameters.capabilities?.paymasterService as { supported?: unknown } | undefined
  const url = paymaster?.supported === true ? config.paymasterUrl : undefined
  const { id } = await sendCalls(client, {
    calls: [parameters.call],
    ...(url ? { capabilities: { paymasterService: { url } } } : {}),
  })
  // The bundle is accepted: from here on nothing is sent again, whatever its status says.
  const result = await waitForCallsStatus(client, {
    id,
    timeout: config.polling.callsTimeout,
    pollingInterval: config.polling.interval,
  }).catch(() => undefined)
  if (result?.status === 'failure')
    throw new PaySessionError('TRANSACTION_FAILED', { details: `call bundle ${id}` })
  const receipt = result?.receipts?.find((r) => r.status === 'success') ?? result?.receipts?.[0]
  return result?.status === 'success' ? receipt?.transactionHash : undefined
}
