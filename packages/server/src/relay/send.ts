import { eip3009Abi } from '@paysession/protocol'
import { type Address, encodeFunctionData, type Hex, keccak256 } from 'viem'
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

/** What a send is about to use, told to its caller before the transaction leaves. */
export type Sending = { relayer: Address; relayerNonce: number; hash?: Hex | undefined }

/**
 * Sends the transfer from the relayer with a nonce no other instance uses: under the store's
 * nonce lock, the node's pending count (a send that never reached it left no gap), or one past
 * the last nonce a node accepted, if that is higher and recent. `beforeSend` runs under the lock
 * once the nonce (and, with a local key, the signed transaction's hash) is known and the lock is
 * still held, right before the transaction leaves; if it throws, nothing is sent. Within a
 * process, sends for one relayer queue here, so only one of them waits on the shared lock.
 */
export function createSender(options: ResolvedRelayOptions) {
  const queues = new Map<string, Promise<unknown>>()
  const { account, store } = options
  const relayer = account.address

  return async function send(
    network: Network,
    token: Address,
    request: RelayRequest,
    fees: Fees,
    beforeSend: (sending: Sending) => Promise<void>,
  ): Promise<Hex> {
    const key = `${network.chain.id}:${relayer.toLowerCase()}`
    const work = () =>
      store.withNonce(key, async (last, assertHeld) => {
        const pending = await network.publicClient
          .getTransactionCount({ address: relayer, blockTag: 'pending' })
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
        // A local key signs here, so the hash is recorded before the node is asked (once:
        // viem never repeats a send); another account goes through its wallet client.
        if (account.signTransaction) {
          const serializedTransaction = await account.signTransaction({
            type: 'eip1559',
            chainId: network.chain.id,
            to: token,
            data: encodeFunctionData(call),
            nonce,
            ...fees,
          })
          await assertHeld()
          await beforeSend({ relayer, relayerNonce: nonce, hash: keccak256(serializedTransaction) })
          const hash = await network.publicClient.sendRawTransaction({ serializedTransaction })
          return { nonce, result: hash }
        }
        await assertHeld()
        await beforeSend({ relayer, relayerNonce: nonce })
        const hash = await network.wallet.writeContract({
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
