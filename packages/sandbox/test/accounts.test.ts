import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { localChain } from '../src/chain/clients.js'
import { erc20Abi, type Sandbox, safeAbi, smartAccountAbi } from '../src/index.js'
import { api, createSession, start, waitForSession } from './helpers.js'

// Smart-contract accounts pay: the transfer to the one-time wallet comes from the account, sent
// by a bundler or a second owner. The sandbox credits it by the Transfer log and refunds there.
let sb: Sandbox
let publicClient: ReturnType<typeof createPublicClient>
beforeAll(async () => {
  sb = await start()
  publicClient = createPublicClient({ chain: localChain(sb.rpcUrl), transport: http(sb.rpcUrl) })
})
afterAll(() => sb?.stop())

const wallet = (key: Hex) =>
  createWalletClient({
    account: privateKeyToAccount(key),
    chain: localChain(sb.rpcUrl),
    transport: http(sb.rpcUrl),
  })
const transfer = (to: Hex, value: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] })

test('a smart account pays through its bundler; refunds go back to the smart account', async () => {
  const { smartAccount } = sb.accounts
  const s = await createSession(sb)
  const data = transfer(s.oneTimeWalletAddress, 10_000_000n)
  const usdc = sb.tokens.USDC.address
  const nonce = (await publicClient.readContract({
    address: smartAccount.address,
    abi: smartAccountAbi,
    functionName: 'nonce',
  })) as bigint
  const hash = (await publicClient.readContract({
    address: smartAccount.address,
    abi: smartAccountAbi,
    functionName: 'callHash',
    args: [usdc, 0n, data, nonce],
  })) as Hex
  const signature = await privateKeyToAccount(sb.customers[0]!.privateKey).signMessage({
    message: { raw: hash },
  })
  // Signed by someone else: refused.
  const stranger = await privateKeyToAccount(sb.customers[2]!.privateKey).signMessage({
    message: { raw: hash },
  })
  await expect(
    publicClient.simulateContract({
      account: smartAccount.bundler,
      address: smartAccount.address,
      abi: smartAccountAbi,
      functionName: 'execute',
      args: [usdc, 0n, data, stranger],
    }),
  ).rejects.toThrow('not authorised by the owner')
  const tx = await createWalletClient({
    account: smartAccount.bundler,
    chain: localChain(sb.rpcUrl),
    transport: http(sb.rpcUrl),
  }).writeContract({
    address: smartAccount.address,
    abi: smartAccountAbi,
    functionName: 'execute',
    args: [usdc, 0n, data, signature],
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash: tx })
  expect(getAddress(receipt.from)).toBe(smartAccount.bundler)
  const [log] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
  expect(log!.args.from).toBe(smartAccount.address)

  const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  expect(getAddress(funded.userAddress)).toBe(smartAccount.address)
  expect(funded.fundingTransactionHash).toBe(tx)
  const before = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [smartAccount.address],
  })
  const res = await api(sb)('POST', `/api/v1/payment-sessions/${s.paymentSessionId}/captures`, {
    auth: sb.apiKey,
    body: { requestId: 'c1', captureAmount: '4.00', isFinalCapture: true },
  })
  expect(res.status).toBe(202)
  await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
  const after = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [smartAccount.address],
  })
  expect(after - before).toBe(6_000_000n)
})

test('a Safe-like account pays only once the second owner approves', async () => {
  const { safe } = sb.accounts
  const s = await createSession(sb)
  const data = transfer(s.oneTimeWalletAddress, 10_000_000n)
  const first = wallet(sb.customers[0]!.privateKey)
  const proposal = await first.writeContract({
    address: safe.address,
    abi: safeAbi,
    functionName: 'propose',
    args: [sb.tokens.USDC.address, data],
  })
  const [proposed] = parseEventLogs({
    abi: safeAbi,
    eventName: 'Proposed',
    logs: (await publicClient.waitForTransactionReceipt({ hash: proposal })).logs,
  }) as unknown as { args: { id: Hex } }[]
  const id = proposed!.args.id
  await expect(
    publicClient.simulateContract({
      account: safe.owners[0],
      address: safe.address,
      abi: safeAbi,
      functionName: 'approve',
      args: [id],
    }),
  ).rejects.toThrow('needs the other owner')
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(
    (await api(sb)('GET', `/api/v1/payment-sessions/${s.paymentSessionId}`, { auth: sb.apiKey }))
      .json.status,
  ).toBe('CREATED')

  const executed = await wallet(sb.customers[1]!.privateKey).writeContract({
    address: safe.address,
    abi: safeAbi,
    functionName: 'approve',
    args: [id],
  })
  const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  expect(funded.fundingTransactionHash).toBe(executed)
  expect(getAddress(funded.userAddress)).toBe(safe.address)
})
