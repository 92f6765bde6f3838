import type { Address, Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createCheckout,
  createMemoryStorage,
  getSession,
  payWithWallet,
  readPaymentRecord,
} from '../src/exports/index.js'
import {
  anvilRpc,
  connectAndChoose,
  createSession,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  transfersTo,
  waitForStep,
  withCheckout,
} from './support.js'

// The wallet replaces the payment's transaction while it is pending (speed up, cancel), as
// wallets do: same sender and nonce, higher fees. anvil mines only when told to here, so the
// original is still pending when its replacement takes its nonce.

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})
afterEach(async () => {
  await anvilRpc(sb, 'evm_setAutomine', [true])
})

type RpcTransaction = {
  from: Address
  to: Address
  input: Hex
  nonce: Hex
  maxFeePerGas: Hex
  maxPriorityFeePerGas: Hex
}

/** Sends, from the same account and nonce with doubled fees, what `change` makes of `hash`. */
async function replace(hash: Hex, change: (tx: RpcTransaction) => Record<string, unknown>) {
  const tx = await anvilRpc<RpcTransaction>(sb, 'eth_getTransactionByHash', [hash])
  const double = (value: Hex) => `0x${(BigInt(value) * 2n).toString(16)}`
  return anvilRpc<Hex>(sb, 'eth_sendTransaction', [
    {
      from: tx.from,
      nonce: tx.nonce,
      maxFeePerGas: double(tx.maxFeePerGas),
      maxPriorityFeePerGas: double(tx.maxPriorityFeePerGas),
      ...change(tx),
    },
  ])
}

const firstHash = () => {
  let resolve!: (hash: Hex) => void
  const promise = new Promise<Hex>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe('replaced transactions', () => {
  test('sped up in the wallet: the replacement is followed, reported and verified', async () => {
    const customer = sb.customers[1]!
    const created = await createSession(sb, '3.00')
    const wagmi = mockWagmi(sb, customer.address, { pollingInterval: 100 })
    const config = paySessionConfig(sb, wagmi)
    const { connect } = await import('@wagmi/core')
    await connect(wagmi, { connector: wagmi.connectors[0]! })
    const session = await getSession(config, {
      sessionId: created.paymentSessionId,
      sessionToken: created.paymentSessionToken,
    })

    await anvilRpc(sb, 'evm_setAutomine', [false])
    const hashes: Hex[] = []
    const first = firstHash()
    const paying = payWithWallet(config, {
      session,
      sessionToken: created.paymentSessionToken,
      token: 'USDC',
      onHash: (hash) => {
        hashes.push(hash)
        first.resolve(hash)
      },
    })
    const original = await first.promise
    const speedUp = await replace(original, (tx) => ({ to: tx.to, data: tx.input }))
    expect(speedUp).not.toBe(original)
    await anvilRpc(sb, 'evm_mine')

    const result = await paying
    expect(hashes).toEqual([original, speedUp])
    expect(result.hash).toBe(speedUp)
    expect(result.receipt.status).toBe('success')
    const transfers = await transfersTo(sb, sb.tokens.USDC.address, created.oneTimeWalletAddress)
    expect(transfers.map((t) => t.transactionHash)).toEqual([speedUp])
    expect(readPaymentRecord(config.storage, created.paymentSessionId)).toMatchObject({
      state: 'submitted',
      hash: speedUp,
    })
  })

  test('cancelled in the wallet: TRANSFER_MISMATCH, nothing moved, and a retry pays once', async () => {
    const customer = sb.customers[2]!
    const created = await createSession(sb, '4.00')
    const rpc: string[] = []
    const config = paySessionConfig(
      sb,
      mockWagmi(sb, customer.address, { pollingInterval: 100, onRpc: (body) => rpc.push(body) }),
    )
    await withCheckout(config, created, async (checkout) => {
      await connectAndChoose(checkout)

      await anvilRpc(sb, 'evm_setAutomine', [false])
      void checkout.pay()
      const { hash: original } = await waitForStep(checkout, ['submitted', 'confirming'])
      // A wallet cancels after the node has seen the transaction: its nonce is known then.
      await expect
        .poll(() =>
          rpc.some((b) => b.includes('eth_getTransactionByHash') && b.includes(original!)),
        )
        .toBe(true)
      await replace(original!, (tx) => ({ to: tx.from, value: '0x0' }))
      await anvilRpc(sb, 'evm_mine')

      const failed = await waitForStep(checkout, 'failed')
      expect(failed.error?.code).toBe('TRANSFER_MISMATCH')
      expect(failed.canRetry).toBe(true)
      expect(readPaymentRecord(config.storage, created.paymentSessionId)).toBeUndefined()
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, created.oneTimeWalletAddress),
      ).toHaveLength(0)

      await anvilRpc(sb, 'evm_setAutomine', [true])
      await checkout.retry()
      await waitForStep(checkout, 'paid')
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, created.oneTimeWalletAddress),
      ).toHaveLength(1)
    })
  })

  test('reload while pending, then sped up: the new page follows the replacement', async () => {
    const customer = sb.customers[3]!
    const created = await createSession(sb, '5.00')
    const storage = createMemoryStorage() // the same localStorage after the reload
    const ids = { sessionId: created.paymentSessionId, sessionToken: created.paymentSessionToken }
    const first = createCheckout(
      paySessionConfig(sb, mockWagmi(sb, customer.address, { pollingInterval: 100 }), { storage }),
      ids,
    )
    await connectAndChoose(first)
    await anvilRpc(sb, 'evm_setAutomine', [false])
    void first.pay()
    const { hash: original } = await waitForStep(first, ['submitted', 'confirming'])
    first.destroy()

    const rpc: string[] = []
    const second = createCheckout(
      paySessionConfig(
        sb,
        mockWagmi(sb, customer.address, { pollingInterval: 100, onRpc: (body) => rpc.push(body) }),
        { storage },
      ),
      ids,
    )
    try {
      const confirming = await waitForStep(second, 'confirming')
      expect(confirming.hash).toBe(original)
      await expect
        .poll(() => rpc.filter((b) => b.includes('eth_getTransactionByHash')).length)
        .toBeGreaterThan(1)
      const speedUp = await replace(original!, (tx) => ({ to: tx.to, data: tx.input }))
      await anvilRpc(sb, 'evm_mine')

      const paid = await waitForStep(second, 'paid')
      expect(paid.hash).toBe(speedUp)
      expect(
        (await transfersTo(sb, sb.tokens.USDC.address, created.oneTimeWalletAddress)).map(
          (t) => t.transactionHash,
        ),
      ).toEqual([speedUp])
    } finally {
      second.destroy()
    }
  })
})
