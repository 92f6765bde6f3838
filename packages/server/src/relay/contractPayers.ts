import { type Address, isAddressEqual, type PublicClient } from 'viem'
import { relayError } from './errors.js'
import type { RelayOptions } from './options.js'
import { refuse } from './parseRequest.js'

/** Whether the merchant lets `address` pay as a contract (its code runs at the relayer's expense). */
export async function isAllowedContractPayer(
  options: Pick<RelayOptions, 'contractPayers'>,
  address: Address,
): Promise<boolean> {
  const allowed = options.contractPayers ?? []
  return Array.isArray(allowed)
    ? allowed.some((a) => isAddressEqual(a, address))
    : await allowed(address)
}

/**
 * The contract-payer policy on chain. A payer with code at `from` (a contract, or an EOA
 * delegated by EIP-7702, whose code is `0xef0100` + the delegate) is a contract payer even when
 * its key signed: the token asks ERC-1271 of any `from` with code, so its code would run at the
 * relayer's expense. It is refused before any gas is spent unless it is on the list.
 */
export async function assertPayerPolicy(
  options: Pick<RelayOptions, 'contractPayers'>,
  publicClient: PublicClient,
  from: Address,
): Promise<void> {
  const code = await publicClient.getCode({ address: from }).catch((error) => {
    throw relayError('RELAY_UNAVAILABLE', { details: 'payer code', cause: error })
  })
  if (!code || code === '0x') return
  if (await isAllowedContractPayer(options, from)) return
  const kind = code.startsWith('0xef0100') ? 'an EIP-7702 delegation' : 'a contract'
  refuse(`the payer has code (${kind}) and is no allowed contract payer`)
}
