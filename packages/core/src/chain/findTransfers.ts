import { stablecoinAbi } from '@paysession/protocol'
import { type Address, type Client, isAddressEqual } from 'viem'
import { getBlockNumber, getLogs } from 'viem/actions'

/** Blocks per `eth_getLogs` at first: within what common hosted RPCs serve. */
export const logsRange = 2_000n

const transferEvent = stablecoinAbi[2]

/**
 * The ERC-20 `Transfer`s of `token` from `from` to `to` since `fromBlock`, read with viem's
 * `getLogs` in bounded block ranges, which viem leaves to the caller: hosted RPCs refuse
 * `eth_getLogs` over a few thousand blocks, and on a fast chain (Arbitrum mines four a second) a
 * payment record a few hours old is far behind the head. A range the node refuses is halved, and
 * the smaller range kept for the rest of the scan. viem decodes each log and keeps those matching
 * `from` and `to` (some RPCs ignore topics); logs of another address or removed are skipped. `first` stops at the first transfer found.
 */
export async function findTransfers(
  client: Client,
  parameters: {
    token: Address
    from: Address
    to: Address
    fromBlock: bigint
    /** Default: the head. */
    toBlock?: bigint
    first?: boolean
  },
) {
  const { token, from, to } = parameters
  const head = parameters.toBlock ?? (await getBlockNumber(client, { cacheTime: 0 }))
  const read = (fromBlock: bigint, toBlock: bigint) =>
    getLogs(client, {
      address: token,
      event: transferEvent,
      args: { from, to },
      fromBlock,
      toBlock,
      strict: true,
    })
  const found: Awaited<ReturnType<typeof read>> = []
  let range = logsRange
  for (let start = parameters.fromBlock; start <= head; ) {
    const end = start + range - 1n < head ? start + range - 1n : head
    let logs: typeof found
    try {
      logs = await read(start, end)
    } catch (error) {
      if (end === start || !isRangeRefusal(error)) throw error
      range = (end - start + 1n) / 2n
      continue
    }
    // viem decodes and matches `args`; the address is the node's filter alone.
    for (const log of logs) {
      if (log.removed || !isAddressEqual(log.address, token)) continue
      found.push(log)
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
