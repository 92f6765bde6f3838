// The sandbox's two smart-contract accounts (packages/sandbox/contracts/TestSmartAccount.sol),
// driven through their compiled ABIs: a smart account whose owner signs each call for a bundler
// to submit, and a Safe-like account whose second owner approves what the first proposed.
import { TestSafe, TestSmartAccount } from '@paysession/sandbox/artifacts/contracts.json'
import {
  type Abi,
  type Address,
  type Client,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  parseEventLogs,
} from 'viem'
import { signMessage, waitForTransactionReceipt } from 'viem/actions'
import { fromChain } from './errors.js'

const smartAccountAbi = TestSmartAccount.abi as Abi
const safeAbi = TestSafe.abi as Abi

export type SmartAccount = { kind: 'smart'; address: Address; owner: Address; bundler: Address }
export type SafeAccount = { kind: 'safe'; address: Address; owners: Address[] }
export type ContractAccount = (SmartAccount | SafeAccount) & { label: string }

/** The call a page asked for, as `eth_sendTransaction` or one of `wallet_sendCalls` has it. */
export type Call = { to: Address; value?: Hex | undefined; data?: Hex | undefined }

async function onChain<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw fromChain(error)
  }
}

// Plain eth_call and eth_sendTransaction requests, not viem's readContract and writeContract
// actions: those bring transaction preparation, blobs and signature recovery for local keys,
// and here anvil (or the page's chain) holds the keys and fills the rest in.
async function read(client: Client, address: Address, functionName: string, args: unknown[] = []) {
  const data = encodeFunctionData({ abi: smartAccountAbi, functionName, args })
  const result = await client.request({
    method: 'eth_call',
    params: [{ to: address, data }, 'latest'],
  })
  return decodeFunctionResult({ abi: smartAccountAbi, functionName, data: result })
}
function send(client: Client, from: Address, to: Address, data: Hex) {
  return client.request({ method: 'eth_sendTransaction', params: [{ from, to, data }] })
}
async function mined(client: Client, hash: Hex) {
  return waitForTransactionReceipt(client, { hash, pollingInterval: 100, timeout: 30_000 })
}

/** The owner signs the call (EIP-191 over the account's callHash); the bundler submits it. */
export function execute(client: Client, account: SmartAccount, call: Call): Promise<Hex> {
  return onChain(async () => {
    const args = [call.to, BigInt(call.value ?? 0), call.data ?? '0x']
    const nonce = await read(client, account.address, 'nonce')
    const hash = (await read(client, account.address, 'callHash', [...args, nonce])) as Hex
    const signature = await signMessage(client, { account: account.owner, message: { raw: hash } })
    const data = encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'execute',
      args: [...args, signature],
    })
    return send(client, account.bundler, account.address, data)
  })
}

/** The first owner proposes; the answer is the proposal id, as a Safe answers with a safeTxHash. */
export function propose(client: Client, account: SafeAccount, call: Call): Promise<Hex> {
  return onChain(async () => {
    const data = encodeFunctionData({
      abi: safeAbi,
      functionName: 'propose',
      args: [call.to, call.data ?? '0x'],
    })
    const receipt = await mined(
      client,
      await send(client, account.owners[0]!, account.address, data),
    )
    const [proposed] = parseEventLogs({ abi: safeAbi, logs: receipt.logs, eventName: 'Proposed' })
    return (proposed!.args as { id: Hex }).id
  })
}

/** The second owner approves one proposal: it runs in that transaction. */
export function approve(client: Client, account: SafeAccount, id: Hex): Promise<Hex> {
  return onChain(async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'approve', args: [id] })
    const hash = await send(client, account.owners[1]!, account.address, data)
    return (await mined(client, hash)).transactionHash
  })
}
