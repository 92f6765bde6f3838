import {
  type Address,
  type Chain,
  createWalletClient,
  custom,
  type Hex,
  parseEther,
  type Transport,
  type WalletClient,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type { ChainClients } from './clients.js'
import { erc20Abi, type LocalToken } from './tokens.js'

/** One transaction of a setup, sent from the setup's own key at a fixed nonce (its index). */
export interface SetupStep {
  /** What it does, for errors: `deploy USDC`, `fund 0xf39F… with USDT`. */
  label: string
  /** For a deployment, the address its nonce gives (CREATE: the sender and nonce alone). */
  deploys?: Address
  send(wallet: SetupWallet, nonce: number): Promise<Hex>
}

export type SetupWallet = WalletClient<Transport, Chain, PrivateKeyAccount>

/** The step that mints `whole` tokens (whole units, not base units) of a test token to `to`. */
export const mintStep = (token: LocalToken, to: Address, whole: bigint): SetupStep => ({
  label: `fund ${to} with ${token.symbol}`,
  send: (wallet, nonce) =>
    wallet.writeContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'mint',
      args: [to, whole * 10n ** BigInt(token.decimals)],
      nonce,
    }),
})

/** Called after each step is mined; crash tests pause the process there. */
export type AfterSetupStep = () => Promise<void>

const setupWallet = (account: PrivateKeyAccount, clients: ChainClients): SetupWallet =>
  // Through the public client's transport: anvil over HTTP, or any EIP-1193 provider.
  createWalletClient({ account, chain: clients.chain, transport: custom(clients.publicClient) })

/**
 * Runs a fixed list of setup transactions (deployments, then funding) from a key used for
 * nothing else, resuming where a chain cut short left off. Each step is one transaction at
 * the nonce equal to its index, so the key's transaction count is exactly the number of steps
 * on chain, in any snapshot of it (a state saved mid-setup, an in-page chain reloaded during
 * its first start): the steps before it are never sent again (no customer is funded twice),
 * the ones after it run now, and every deployment lands at its fixed address.
 */
export async function runSetup(
  clients: ChainClients,
  key: Hex,
  steps: SetupStep[],
  options: {
    /** State set outside transactions (balances), before the first step still to run. */
    prepare?: () => Promise<void>
    afterStep?: AfterSetupStep | undefined
    log?: ((message: string) => void) | undefined
  } = {},
): Promise<void> {
  const { publicClient, testClient } = clients
  const account = privateKeyToAccount(key)
  const done = await publicClient.getTransactionCount({
    address: account.address,
    blockTag: 'pending',
  })
  for (const step of steps.slice(0, done))
    if (step.deploys && !(await hasCode(clients, step.deploys)))
      throw new Error(
        `the chain's setup key ${account.address} has sent ${done} transaction(s) but "${step.label}" is not at ${step.deploys}: ` +
          'this chain was not set up by this sandbox. Start with a fresh data folder.',
      )
  if (done >= steps.length) return

  if (done > 0)
    options.log?.(
      `setup cut short (by a crash or reload during the first start) resumed: steps ${done + 1}-${steps.length} of ${steps.length} (${steps[done]!.label}, ...)`,
    )
  await testClient.setBalance({ address: account.address, value: parseEther('1000') })
  await options.prepare?.()
  const wallet = setupWallet(account, clients)
  let last: Hex | undefined
  for (let nonce = done; nonce < steps.length; nonce++) {
    const step = steps[nonce]!
    last = await step.send(wallet, nonce)
    // Deployments are checked one by one; funding is awaited once at the end unless a test pauses.
    if (!step.deploys && !options.afterStep) continue
    const receipt = await publicClient.waitForTransactionReceipt({ hash: last })
    if (receipt.status !== 'success') throw new Error(`setup step "${step.label}" reverted`)
    if (step.deploys && receipt.contractAddress?.toLowerCase() !== step.deploys.toLowerCase())
      throw new Error(
        `"${step.label}" deployed at ${receipt.contractAddress}, expected ${step.deploys}`,
      )
    await options.afterStep?.()
  }
  if (last) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: last })
    if (receipt.status !== 'success')
      throw new Error(`setup step "${steps[steps.length - 1]!.label}" reverted`)
  }
}

async function hasCode(clients: ChainClients, address: Address) {
  const code = await clients.publicClient.getCode({ address })
  return !!code && code !== '0x'
}
