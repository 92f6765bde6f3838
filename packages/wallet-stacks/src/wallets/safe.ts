import SafeSdk from '@safe-global/protocol-kit'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { safeContractNetworks } from '../contracts.js'
import type { StackEndpoints } from '../startWalletStacks.js'
import { createTestWallet, ProviderRpcError, type TestWallet } from './wallet.js'

// protocol-kit's types describe its CommonJS build, where the class is `default.default`; Node
// loads its ES build, where it is `default`.
const Safe = ('init' in SafeSdk ? SafeSdk : SafeSdk.default) as typeof SafeSdk.default
type SafeTransaction = Awaited<ReturnType<InstanceType<typeof Safe>['createTransaction']>>

export type SafeWallet = TestWallet & {
  /** Proposals signed by the first owner, waiting for the second: safeTxHash → transaction. */
  proposals: Map<Hex, SafeTransaction>
  /** The second owner signs and executes a proposal (from its own key, paying gas): the tx hash. */
  confirm(safeTxHash: Hex): Promise<Hex>
}

/**
 * A Safe 1.4.1 with two owners and threshold 2, driven by Safe's own SDK (protocol-kit). Like
 * Safe{Wallet} through WalletConnect, `eth_sendTransaction` answers with the safeTxHash of a
 * proposal the first owner signed; the transfer exists on chain only once the second owner
 * confirms and executes it, maybe much later. The proposals live here (as in Safe's transaction
 * service), so a page can reload meanwhile. `eth_signTypedData_v4` answers, as Safe{Wallet} does
 * once enough owners confirmed an off-chain message, with both owners' signatures of the
 * SafeMessage: what the Safe's `isValidSignature` (ERC-1271, through its fallback handler)
 * accepts for the typed data's hash. Here the second owner confirms at once.
 */
export async function createSafeWallet(
  stacks: StackEndpoints,
  options: { ownerKeys: [Hex, Hex]; saltNonce?: string },
): Promise<SafeWallet> {
  const owners = options.ownerKeys.map((k) => privateKeyToAccount(k))
  const contractNetworks = safeContractNetworks(stacks.chain.id)
  const predicted = await Safe.init({
    provider: stacks.rpcUrl,
    signer: options.ownerKeys[0],
    predictedSafe: {
      safeAccountConfig: { owners: owners.map((o) => o.address), threshold: 2 },
      safeDeploymentConfig: { saltNonce: options.saltNonce ?? '0', safeVersion: '1.4.1' },
    },
    contractNetworks,
  })
  const address = (await predicted.getAddress()) as Address
  const client = createPublicClient({ chain: stacks.chain, transport: http(stacks.rpcUrl) })
  if (!(await predicted.isSafeDeployed())) {
    const deployment = await predicted.createSafeDeploymentTransaction()
    const wallet = createWalletClient({
      account: owners[0]!,
      chain: stacks.chain,
      transport: http(stacks.rpcUrl),
    })
    const hash = await wallet.sendTransaction({
      to: deployment.to as Address,
      data: deployment.data as Hex,
      value: BigInt(deployment.value),
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`Safe deployment ${hash} reverted`)
  }
  const kit = (signer: Hex) =>
    Safe.init({ provider: stacks.rpcUrl, signer, safeAddress: address, contractNetworks })
  const first = await kit(options.ownerKeys[0])
  const proposals = new Map<Hex, SafeTransaction>()

  const wallet = createTestWallet({
    name: 'Safe 1.4.1 (2 of 2)',
    rdns: 'dev.paysession.test.safe',
    address,
    chain: stacks.chain,
    rpcUrl: stacks.rpcUrl,
    methods: {
      eth_sendTransaction: async ([tx]) => {
        const { to, data, value } = tx as { to: Address; data?: Hex; value?: Hex }
        const proposal = await first.createTransaction({
          transactions: [{ to, data: data ?? '0x', value: BigInt(value ?? 0).toString() }],
        })
        const signed = await first.signTransaction(proposal)
        const safeTxHash = (await first.getTransactionHash(signed)) as Hex
        proposals.set(safeTxHash, signed)
        return safeTxHash
      },
      eth_signTypedData_v4: async ([signer, data]) => {
        if (typeof signer !== 'string' || !isAddressEqual(signer as Address, address))
          throw new ProviderRpcError(4100, `This Safe signs only as ${address}.`)
        const typedData = typeof data === 'string' ? JSON.parse(data) : data
        let message = first.createMessage(typedData)
        message = await first.signMessage(message)
        message = await (await kit(options.ownerKeys[1])).signMessage(message)
        return message.encodedSignatures() as Hex
      },
    },
  })
  return {
    ...wallet,
    proposals,
    async confirm(safeTxHash) {
      const proposal = proposals.get(safeTxHash)
      if (!proposal) throw new Error(`no proposal ${safeTxHash}`)
      const second = await kit(options.ownerKeys[1])
      const signed = await second.signTransaction(proposal)
      const result = await second.executeTransaction(signed)
      const hash = result.hash as Hex
      const receipt = await client.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`Safe execution ${hash} reverted`)
      proposals.delete(safeTxHash)
      return hash
    },
  }
}
