import { createSmartAccountClient } from 'permissionless'
import { toSafeSmartAccount, toSimpleSmartAccount } from 'permissionless/accounts'
import { createPimlicoClient } from 'permissionless/clients/pimlico'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  numberToHex,
} from 'viem'
import {
  createPaymasterClient,
  entryPoint07Address,
  entryPoint08Address,
  type SmartAccount,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import type { StackEndpoints } from '../startWalletStacks.js'
import { createTestWallet, ProviderRpcError, type TestWallet } from './wallet.js'

export type SmartAccountKind = 'simple' | 'safe4337' | 'eip7702'

type Call = { to: Address; data?: Hex; value?: Hex }

/**
 * A smart wallet whose account is ERC-4337 code behind the EntryPoint, sending every payment as
 * a user operation through the bundler, as Coinbase's, MetaMask's and Pimlico-based wallets do:
 * - `simple`: eth-infinitism's SimpleAccount (a counterfactual contract the first operation
 *   deploys), through permissionless's `toSimpleSmartAccount`;
 * - `safe4337`: a Safe 1.4.1 proxy with Safe's ERC-4337 module 0.3.0 (EntryPoint v0.7, one
 *   owner), deployed by its first operation, through permissionless's `toSafeSmartAccount`;
 * - `eip7702`: an EOA whose code delegates to Simple7702Account (EIP-7702; the first operation
 *   carries the authorization), through viem's `toSimple7702SmartAccount`.
 * EIP-5792: `wallet_sendCalls` answers with the user-operation hash as the call-bundle id, and
 * uses the page's ERC-7677 paymaster (`capabilities.paymasterService.url`) when given one;
 * `wallet_getCallsStatus` reads the bundler's receipt. `eth_sendTransaction` answers with the
 * user-operation hash too, as such wallets do over WalletConnect.
 */
export async function createSmartAccountWallet(
  stacks: StackEndpoints,
  options: { kind: SmartAccountKind; ownerKey: Hex; name?: string },
): Promise<TestWallet & { account: SmartAccount }> {
  const client = createPublicClient({ chain: stacks.chain, transport: http(stacks.rpcUrl) })
  const owner = privateKeyToAccount(options.ownerKey)
  const entryPoint =
    options.kind === 'safe4337'
      ? ({ address: entryPoint07Address, version: '0.7' } as const)
      : ({ address: entryPoint08Address, version: '0.8' } as const)
  const account: SmartAccount =
    options.kind === 'simple'
      ? await toSimpleSmartAccount({ client, owner, entryPoint })
      : options.kind === 'safe4337'
        ? await toSafeSmartAccount({
            client,
            owners: [owner],
            version: '1.4.1',
            entryPoint: { address: entryPoint07Address, version: '0.7' },
          })
        : await toSimple7702SmartAccount({ client, owner })
  const pimlico = createPimlicoClient({ transport: http(stacks.bundlerUrl), entryPoint })
  const chainId = numberToHex(stacks.chain.id)

  const send = async (calls: Call[], paymasterUrl?: string) => {
    const smartClient = createSmartAccountClient({
      account,
      chain: stacks.chain,
      client,
      bundlerTransport: http(stacks.bundlerUrl),
      ...(paymasterUrl
        ? { paymaster: createPaymasterClient({ transport: http(paymasterUrl) }) }
        : {}),
      userOperation: {
        estimateFeesPerGas: async () => (await pimlico.getUserOperationGasPrice()).fast,
      },
    })
    // EIP-7702: until the EOA's code delegates to the account, the operation carries its
    // authorization, signed by the EOA's key for its current nonce (the bundler submits it).
    const authorization =
      account.authorization && !(await account.isDeployed())
        ? await createWalletClient({
            account: owner,
            chain: stacks.chain,
            transport: http(stacks.rpcUrl),
          }).signAuthorization(account.authorization)
        : undefined
    return smartClient.sendUserOperation({
      calls: calls.map((c) => ({ to: c.to, data: c.data ?? '0x', value: BigInt(c.value ?? 0) })),
      ...(authorization ? { authorization } : {}),
    })
  }

  const status = async (id: Hex) => {
    const receipt = await pimlico.getUserOperationReceipt({ hash: id }).catch(() => null)
    const base = { version: '2.0.0', id, chainId, atomic: true }
    if (!receipt) return { ...base, status: 100 }
    // The transaction's receipt as the node gives it (hex fields, every log of the bundle).
    const raw = await client.request({
      method: 'eth_getTransactionReceipt',
      params: [receipt.receipt.transactionHash],
    })
    return { ...base, status: receipt.success ? 200 : 500, receipts: [raw] }
  }

  const wallet = createTestWallet({
    name:
      options.name ?? (options.kind === 'simple' ? 'SimpleAccount (ERC-4337)' : 'EIP-7702 account'),
    rdns: `dev.paysession.test.${options.kind}`,
    address: account.address,
    chain: stacks.chain,
    rpcUrl: stacks.rpcUrl,
    methods: {
      wallet_getCapabilities: async () => ({
        [chainId]: { atomic: { status: 'supported' }, paymasterService: { supported: true } },
      }),
      wallet_sendCalls: async ([request]) => {
        const {
          calls,
          capabilities,
          chainId: target,
        } = (request ?? {}) as {
          calls?: Call[]
          capabilities?: { paymasterService?: { url?: string } }
          chainId?: string
        }
        if (target && target.toLowerCase() !== chainId)
          throw new ProviderRpcError(5710, `Chain ${target} is not supported.`)
        if (!calls?.length) throw new ProviderRpcError(-32602, 'No calls.')
        return { id: await send(calls, capabilities?.paymasterService?.url) }
      },
      wallet_getCallsStatus: async ([id]) => status(id as Hex),
      eth_sendTransaction: async ([tx]) => send([tx as Call]),
    },
  })
  return { ...wallet, account }
}
