import { eip3009Abi } from '@paysession/protocol'
import { type Address, encodeFunctionData, type Hex } from 'viem'
import { type Fees, transferArgs } from './chainChecks.js'
import { relayError } from './errors.js'
import type { Network } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import type { RelayRequest } from './parseRequest.js'

/**
 * How long a nonce a node accepted outranks the node's own pending count: covers an RPC
 * provider whose nodes see a new transaction a moment apart. After it, the node's count rules,
 * so a nonce whose transaction never reached a node is used again, not left as a gap.
 */
export const acceptedNonceWindowMs = 10_000

/**
 * Sends the transfer from the relayer with a nonce no other instance uses: under the store's
 * nonce lock, the node's pending count (a send that never reached it left no gap), or one past
 * the last nonce a node accepted, if that is higher and recent. Within a process, sends for one
 * relayer queue here, so only one of them waits on the shared lock.
 */
export function createSender(options: ResolvedRelayOptions) {
  const queues = new Map<string, Promise<unknown>>()
  const { account, store } = options

  return async function send(
    network: Network,
    token: Address,
    request: RelayRequest,
    fees: Fees,
  ): Promise<Hex> {
    const key = `${network.chain.id}:${account.address.toLowerCase()}`
    const work = () =>
      store.withNonce(key, async (last) => {
        const pending = await network.publicClient
          .getTransactionCount({ address: account.address, blockTag: 'pending' })
          .catch((error) => {
            throw relayError('RELAY_UNAVAILABLE', { details: 'relayer nonce', cause: error })
          })
        const nonce =
          last && Date.now() - last.at < acceptedNonceWindowMs
            ? Math.max(pending, last.nonce + 1)
            : pending
        const call = {
          abi: eip3009Abi,
          functionName: 'transferWithAuthorization',
          args: transferArgs(request),
        } as const
        // A local key signs here and the node is asked once, so the lock is held for one
        // round trip after the nonce read; another account goes through its wallet client.
        const hash = account.signTransaction
          ? await network.publicClient.sendRawTransaction({
              serializedTransaction: await account.signTransaction({
                type: 'eip1559',
                chainId: network.chain.id,
                to: token,
                data: encodeFunctionData(call),
                nonce,
                ...fees,
              }),
            })
          : await network.wallet.writeContract({
              account,
              chain: network.chain,
              address: token,
              ...call,
              nonce,
              ...fees,
            })
        return { nonce, result: hash }
      })
    const run = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work)
    queues.set(key, run)
    try {
      return await run
    } finally {
      if (queues.get(key) === run) queues.delete(key)
    }
  }
}
