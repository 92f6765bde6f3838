import { readFileSync } from 'node:fs'
import {
  type Address,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseEther,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ChainClients } from './clients.js'
import { erc20Abi, LOCAL_TOKENS } from './tokens.js'

const artifacts = JSON.parse(
  readFileSync(new URL('../../artifacts/contracts.json', import.meta.url), 'utf8'),
) as Record<string, { abi: unknown[]; bytecode: Hex }>

export const smartAccountAbi = artifacts.TestSmartAccount!.abi
export const safeAbi = artifacts.TestSafe!.abi

/** Deploys the test smart-contract accounts at nonces 0 and 1: their addresses never change. */
export const ACCOUNTS_DEPLOYER_KEY: Hex = keccak256(toHex('paysession.sandbox.accounts.v1'))

/**
 * The test smart-contract accounts, for wallets that are not a plain key: a minimal smart account
 * (owner: customer 0; anvil's dev account 7 submits its calls, as an ERC-4337 bundler would) and
 * a Safe-like two-owner account (customers 0 and 1: the second owner's approval executes).
 */
export type TestAccounts = {
  smartAccount: { address: Address; owner: Address; bundler: Address }
  safe: { address: Address; owners: [Address, Address] }
}

/** anvil's dev account 7 (unlocked in anvil): the smart account's bundler. */
export const BUNDLER: Address = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'

/** Deploys (once; skipped when already there) and funds the test smart-contract accounts. */
export async function deployTestAccounts(
  clients: ChainClients,
  owners: [Address, Address],
  mint = 10_000n,
): Promise<TestAccounts> {
  const { publicClient, testClient, chain } = clients
  const deployer = privateKeyToAccount(ACCOUNTS_DEPLOYER_KEY)
  const [smart, safe] = [0, 1].map((nonce) => contractAddress(deployer.address, nonce)) as [
    Address,
    Address,
  ]
  const accounts: TestAccounts = {
    smartAccount: { address: smart, owner: owners[0], bundler: BUNDLER },
    safe: { address: safe, owners },
  }
  const code = await publicClient.getCode({ address: safe })
  if (code && code !== '0x') return accounts

  await testClient.setBalance({ address: deployer.address, value: parseEther('10') })
  const wallet = createWalletClient({
    account: deployer,
    chain,
    transport: http(chain.rpcUrls.default.http[0]),
  })
  const deploy = async (name: string, args: unknown[], expected: Address) => {
    const artifact = artifacts[name]!
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.contractAddress?.toLowerCase() !== expected.toLowerCase())
      throw new Error(`${name} deployed at ${receipt.contractAddress}, expected ${expected}`)
  }
  await deploy('TestSmartAccount', [owners[0]], smart)
  await deploy('TestSafe', owners, safe)
  let last: Hex | undefined
  for (const token of LOCAL_TOKENS)
    for (const to of [smart, safe])
      last = await wallet.writeContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'mint',
        args: [to, mint * 10n ** BigInt(token.decimals)],
      })
  if (last) await publicClient.waitForTransactionReceipt({ hash: last })
  await testClient.setBalance({ address: BUNDLER, value: parseEther('1000') })
  return accounts
}

// CREATE address: keccak256(rlp([sender, nonce]))[12:], for the small nonces used here.
function contractAddress(sender: Address, nonce: number): Address {
  const rlpNonce = nonce === 0 ? '80' : nonce.toString(16).padStart(2, '0')
  const payload = `d6${'94'}${sender.slice(2).toLowerCase()}${rlpNonce}`
  return getAddress(`0x${keccak256(`0x${payload}`).slice(26)}`)
}
