import { stablecoinAbi } from '@paysession/protocol'
import {
  type Address,
  type Client,
  encodeFunctionData,
  type Hex,
  type Log,
  parseEventLogs,
} from 'viem'
import { readContract } from 'viem/actions'

// The ERC-20 calls and logs of a payment, through viem with the one ABI (@paysession/protocol).

/** `token.balanceOf(account)`. */
export function getTokenBalance(client: Client, token: Address, account: Address): Promise<bigint> {
  return readContract(client, {
    address: token,
    abi: stablecoinAbi,
    functionName: 'balanceOf',
    args: [account],
  })
}

/**
 * Calldata of `transfer(to, value)`. The ABI declares no return value, so tokens whose transfer
 * returns nothing (mainnet USDT) and standard ones are paid the same way.
 */
export function encodeTransfer(to: Address, value: bigint): Hex {
  return encodeFunctionData({ abi: stablecoinAbi, functionName: 'transfer', args: [to, value] })
}

/**
 * The ERC-20 `Transfer`s among `logs` of `token` (and `from`/`to` when given). Anything else,
 * an ERC-721 transfer (its token id is a fourth topic) included, is left out: never a wrong amount.
 */
export function parseTransfers(
  logs: readonly Log[],
  filter: { token: Address; from?: Address | undefined; to?: Address | undefined },
) {
  const { token, from, to } = filter
  return parseEventLogs({
    abi: stablecoinAbi,
    eventName: 'Transfer',
    logs: [...logs],
    args: { ...(from ? { from } : {}), ...(to ? { to } : {}) },
  }).filter((log) => log.address.toLowerCase() === token.toLowerCase() && !log.removed)
}
