import { type Address, getAddress, type Hex } from 'viem'
import { decodeTransferLog, type TransferLog } from './erc20.js'
import { getBlockNumber, getTransferLogs, type RpcClient } from './rpc.js'

/** Blocks per `eth_getLogs` at first: within what common hosted RPCs serve. */
export const logsRange = 2_000n

export type FoundTransfer = TransferLog & { transactionHash: Hex }

/**
 * The ERC-20 `Transfer`s of `token` from `from` to `to` since `fromBlock`, read in bounded block
 * ranges: hosted RPCs refuse `eth_getLogs` over a few thousand blocks, and on a fast chain
 * (Arbitrum mines four a second) a payment record a few hours old is far behind the head. A range
 * the node refuses is halved, and the smaller range kept for the rest of the scan. Every log is
 * decoded and checked against the filter (some RPCs ignore topics); removed logs are skipped.
 * `first` stops at the first transfer found.
 */
export async function findTransfers(
  client: RpcClient,
  parameters: {
    token: Address
    from: Address
    to: Address
    fromBlock: bigint
    /** Default: the head. */
    toBlock?: bigint
    first?: boolean
  },
): Promise<FoundTransfer[]> {
  const token = getAddress(parameters.token)
  const from = getAddress(parameters.from)
  const to = getAddress(parameters.to)
  const head = parameters.toBlock ?? (await getBlockNumber(client))
  const found: FoundTransfer[] = []
  let range = logsRange
  for (let start = parameters.fromBlock; start <= head; ) {
    const end = start + range - 1n < head ? start + range - 1n : head
    let logs: Awaited<ReturnType<typeof getTransferLogs>>
    try {
      logs = await getTransferLogs(client, { token, from, to, fromBlock: start, toBlock: end })
    } catch (error) {
      if (end === start || !isRangeRefusal(error)) throw error
      range = (end - start + 1n) / 2n
      continue
    }
    for (const log of logs) {
      const transfer = (log as { removed?: boolean }).removed ? undefined : decodeTransferLog(log)
      if (transfer?.token !== token || transfer.from !== from || transfer.to !== to) continue
      if (!transfer.transactionHash) continue
      found.push(transfer as FoundTransfer)
      if (parameters.first) return found
    }
    start = end + 1n
  }
  return found
}

/**
 * The node answered and refused the request (a JSON-RPC error, or HTTP 400/413): what RPCs do
 * for a range or a result set over their limit, in words that differ per provider. A time-out or
 * an unreachable node is not a refusal: a smaller range would not help.
 */
function isRangeRefusal(error: unknown): boolean {
  const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown }
  return (typeof code === 'number' && code !== -32601) || status === 400 || status === 413
}
