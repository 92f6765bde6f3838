import { readFileSync } from 'node:fs'
import { type Address, getAddress, type Hex, keccak256, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ChainClients } from './clients.js'
import { type AfterSetupStep, mintStep, runSetup, type SetupStep } from './setup.js'
import { ACCOUNTS_DEPLOYER_KEY, LOCAL_TOKENS } from './tokens.js'

const artifacts = JSON.parse(
  readFileSync(new URL('../../artifacts/contracts.json', import.meta.url), 'utf8'),
) as Record<string, { abi: unknown[]; bytecode: Hex }>

export const smartAccountAbi = artifacts.TestSmartAccount!.abi
export const safeAbi = artifacts.TestSafe!.abi

export { ACCOUNTS_DEPLOYER_KEY }

/**
 * The test smart-contract accounts, for wallets that are not a plain key: a minimal smart account
 * (owner: customer 0; anvil's dev account 7 submits its calls, as an ERC-4337 bundler would) and
 * a Safe-like two-owner account (customers 0 and 1: the second owner's approval executes).
 * Ours, not Safe's or an ERC-4337 account, because the sandbox puts them on every chain, the
 * hosted demo's in-page chain included, where no bundler or Safe SDK runs; the real stacks are
 * proven in packages/wallet-stacks and e2e/tests/real-wallets.spec.ts (docs/wallets.md).
 */
export type TestAccounts = {
  smartAccount: { address: Address; owner: Address; bundler: Address }
  safe: { address: Address; owners: [Address, Address] }
}

/** anvil's dev account 7 (unlocked in anvil): the smart account's bundler. */
export const BUNDLER: Address = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'

/**
 * Deploys and funds the test smart-contract accounts: on a new chain all of it, on a chain
 * whose first start was cut short the steps it lacks (see runSetup), on a set-up chain nothing.
 */
export async function deployTestAccounts(
  clients: ChainClients,
  owners: [Address, Address],
  options: {
    mint?: bigint
    afterStep?: AfterSetupStep | undefined
    log?: ((message: string) => void) | undefined
  } = {},
): Promise<TestAccounts> {
  const mint = options.mint ?? 10_000n
  const deployer = privateKeyToAccount(ACCOUNTS_DEPLOYER_KEY)
  const [smart, safe] = [0, 1].map((nonce) => contractAddress(deployer.address, nonce)) as [
    Address,
    Address,
  ]
  const deploy = (name: string, args: unknown[], address: Address): SetupStep => ({
    label: `deploy ${name}`,
    deploys: address,
    send: (wallet, nonce) =>
      wallet.deployContract({
        abi: artifacts[name]!.abi,
        bytecode: artifacts[name]!.bytecode,
        args,
        nonce,
      }),
  })
  const steps: SetupStep[] = [
    deploy('TestSmartAccount', [owners[0]], smart),
    deploy('TestSafe', owners, safe),
    ...LOCAL_TOKENS.flatMap((token) => [smart, safe].map((to) => mintStep(token, to, mint))),
  ]
  await runSetup(clients, ACCOUNTS_DEPLOYER_KEY, steps, {
    // Before the first step: any snapshot holding a step holds the bundler's gas too.
    prepare: () => clients.testClient.setBalance({ address: BUNDLER, value: parseEther('1000') }),
    afterStep: options.afterStep,
    log: options.log,
  })
  return {
    smartAccount: { address: smart, owner: owners[0], bundler: BUNDLER },
    safe: { address: safe, owners },
  }
}

// CREATE address: keccak256(rlp([sender, nonce]))[12:], for the small nonces used here.
function contractAddress(sender: Address, nonce: number): Address {
  const rlpNonce = nonce === 0 ? '80' : nonce.toString(16).padStart(2, '0')
  const payload = `d6${'94'}${sender.slice(2).toLowerCase()}${rlpNonce}`
  return getAddress(`0x${keccak256(`0x${payload}`).slice(26)}`)
}
