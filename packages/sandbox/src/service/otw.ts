import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
} from 'viem'
import { erc20Abi, tokenBySymbol } from '../chain/tokens.js'
import type { Context } from './context.js'
import { otwAccount } from './sessions.js'

/** Runs fn after every earlier job of the same one-time wallet: one nonce sequence per OTW. */
export function inLane<T>(ctx: Context, otwIndex: number, fn: () => Promise<T>): Promise<T> {
  const prev = ctx.lanes.get(otwIndex) ?? Promise.resolve()
  const next = prev.then(fn, fn)
  ctx.lanes.set(
    otwIndex,
    next.catch(() => {}),
  )
  return next
}

/** A transfer that was mined but reverted: retrying would not help. */
export class RevertedError extends Error {}

/**
 * Signs a token transfer from a one-time wallet, hands its hash to `record` before
 * broadcasting (so a crash can never lose track of a sent transfer), then
 * broadcasts it and waits for the receipt. The sandbox pays the OTW's gas.
 */
export async function sendFromOtw(
  ctx: Context,
  otwIndex: number,
  tokenSymbol: string,
  to: Address,
  value: bigint,
  record: (hash: Hex) => void,
) {
  const { publicClient, testClient, chain } = ctx.chain
  const account = otwAccount(ctx, otwIndex)
  const token = tokenBySymbol(tokenSymbol)
  if (!token) throw new Error(`unknown token ${tokenSymbol}`)
  const balance = await publicClient.getBalance({ address: account.address })
  if (balance < parseEther('0.01'))
    await testClient.setBalance({ address: account.address, value: parseEther('0.1') })
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] })
  const [nonce, fees, gas] = await Promise.all([
    publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    publicClient.estimateFeesPerGas(),
    publicClient
      .estimateGas({ account: account.address, to: token.address, data })
      .catch((e: unknown) => {
        // The transfer would revert (e.g. the OTW no longer holds the funds): retrying cannot help.
        if (e instanceof BaseError && e.walk((x) => x instanceof ExecutionRevertedError))
          throw new RevertedError(`transfer from OTW ${account.address} reverts: ${e.shortMessage}`)
        throw e
      }),
  ])
  const raw = await account.signTransaction({
    chainId: chain.id,
    type: 'eip1559',
    to: token.address,
    data,
    nonce,
    gas: (gas * 12n) / 10n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  })
  const hash = keccak256(raw)
  record(hash)
  await publicClient.sendRawTransaction({ serializedTransaction: raw })
  return waitMined(ctx, hash)
}

export async function waitMined(ctx: Context, hash: Hex) {
  const receipt = await ctx.chain.publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 })
  if (receipt.status !== 'success') throw new RevertedError(`transaction ${hash} reverted`)
  return hash
}
