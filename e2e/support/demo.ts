// The parts of the run outside the browser: the demo merchant's shop, the sandbox service (with
// the merchant API key) and the chain (viem, no cache), all found through global-setup's env.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from '@playwright/test'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
  parseAbiItem,
  parseUnits,
} from 'viem'

import { env } from './env.js'

export { env }

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export const tokens = {
  USDC: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC',
  USDT: '0x6d741950129e74422fb11ff179C11710c8d2d7CB',
  EURC: '0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57',
} as const satisfies Record<string, Address>
export type TokenSymbol = keyof typeof tokens

/** anvil's dev accounts: the sandbox's five funded test customers (unlocked in anvil). */
export const customers = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
] as const satisfies Address[]
/** anvil's dev account 5: not a sandbox customer, unlocked; tests park tokens there. */
export const parking: Address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'

const local = defineChain({
  id: 31337,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [env.rpc] } },
})
export const chain = createPublicClient({
  chain: local,
  transport: http(env.rpc),
  cacheTime: 0,
  pollingInterval: 100,
})
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)

// ---- The shop --------------------------------------------------------------------------------

export const products = {
  notebook: { amount: '12.00', currency: 'USD' },
  mug: { amount: '24.50', currency: 'USD' },
  beanie: { amount: '48.00', currency: 'USD' },
  tamper: { amount: '39.00', currency: 'EUR' },
} as const
export type ProductId = keyof typeof products

export type Order = { id: string; path: string }

/** What the shop's Buy button posts (POST /checkout): the demo creates the session, redirects. */
export async function createOrder(
  product: ProductId,
  integration: 'script' | 'spa' = 'script',
): Promise<Order> {
  const response = await fetch(`${env.demo}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cart: crypto.randomUUID(), integration, product }),
    redirect: 'manual',
  })
  expect(response.status).toBe(303)
  const path = response.headers.get('location')!
  const id = decodeURIComponent(/\/(?:checkout|spa)\/([^/]+)$/.exec(path)![1]!)
  return { id, path }
}

// ---- The service -------------------------------------------------------------------------------

export type Session = {
  paymentSessionId: string
  status: string
  amount: string
  currency: string
  tokenSymbol?: string
  oneTimeWalletAddress: Address
  userAddress?: Address | null
  userSubmittedTransactionHash?: Hex | null
  fundingTransactionHash?: Hex | null
  capturableAmount?: string
  capturedAmount?: string
  receivedAmount?: string
  captures?: {
    captureAmount: string
    refundAmount: string
    status: string
    finalCapture: boolean
    captureTransferTransactionHash: Hex | null
    refundTransferTransactionHash: Hex | null
  }[]
}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${env.api}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${env.apiKey}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  })
  const body = await response.json()
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body as T
}

/** The session as the merchant reads it (API key). */
export const getSession = (id: string) =>
  api<Session>(`/api/v1/payment-sessions/${encodeURIComponent(id)}`)

export async function waitForStatus(id: string, status: string | RegExp, timeout = 30_000) {
  await expect
    .poll(async () => (await getSession(id)).status, { timeout, intervals: [250] })
    .toMatch(typeof status === 'string' ? new RegExp(`^${status}$`) : status)
  return getSession(id)
}

export type Delivery = {
  id: string
  paymentSessionId: string
  state: string
  attempts: number
  body: { method: string; params: { paymentSessionId: string; status: string }[] }
}

/** The sandbox's webhook deliveries for a session, oldest first. */
export async function deliveries(id: string): Promise<Delivery[]> {
  const { data } = await api<{ data: Delivery[] }>('/sandbox/webhooks')
  return data.filter((d) => d.paymentSessionId === id).reverse()
}

/** The statuses the merchant's /webhooks endpoint acknowledged for a session, in order. */
export async function deliveredStatuses(id: string): Promise<string[]> {
  return (await deliveries(id))
    .filter((d) => d.state === 'DELIVERED')
    .map((d) => d.body.params[0]!.status)
}

export const advanceClock = (seconds: number) =>
  api<{ now: string }>('/sandbox/clock', {
    method: 'POST',
    body: JSON.stringify({ advanceSeconds: seconds }),
  })

/** `paysession-sandbox pay <id>`: the real CLI, as a customer paying from a terminal. */
export function payWithCli(id: string, ...args: string[]) {
  return sandboxCli('pay', id, ...args)
}

/** A `paysession-sandbox` command on the demo's sandbox (`token pause USDC`, ...); what it printed. */
export async function sandboxCli(...args: string[]) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'packages/sandbox/bin/paysession-sandbox.js',
      '--port',
      env.apiPort,
      '--data-dir',
      process.env.E2E_DATA_DIR!,
      ...args,
    ],
    { cwd: repoRoot, timeout: 30_000 },
  )
  return stdout
}

// ---- The chain ---------------------------------------------------------------------------------

export async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(env.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = await response.json()
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}

export const balanceOf = (token: TokenSymbol, owner: Address) =>
  chain.readContract({
    address: tokens[token],
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

export const formatToken = (value: bigint) => formatUnits(value, 6)
export const units = (amount: string) => parseUnits(amount, 6)

/** Every ERC-20 Transfer (any token) into this address since the chain began. */
export const transfersTo = (to: Address) =>
  chain.getLogs({ event: transferEvent, args: { to }, fromBlock: 0n, toBlock: 'latest' })

export const transfersFrom = (from: Address) =>
  chain.getLogs({ event: transferEvent, args: { from }, fromBlock: 0n, toBlock: 'latest' })

/** A token transfer signed by anvil for one of its dev accounts (as the customer's wallet would). */
export async function sendToken(from: Address, token: TokenSymbol, to: Address, amount: bigint) {
  const wallet = createWalletClient({ chain: local, transport: http(env.rpc), account: from })
  const hash = await wallet.writeContract({
    address: tokens[token],
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 100 })
  expect(receipt.status).toBe('success')
  return hash
}

export const setEthBalance = (who: Address, wei: bigint) =>
  rpc('anvil_setBalance', [who, `0x${wei.toString(16)}`])

/**
 * The chain's view of one paid session: exactly `count` transfers into its one-time wallet, and
 * what they sum to.
 */
export async function expectTransfers(otw: Address, count: number) {
  const logs = await transfersTo(otw)
  expect(logs, `transfers to ${otw}`).toHaveLength(count)
  return logs
}

/**
 * Waits until the merchant acknowledged exactly these statuses, in this order. A transfer the
 * sandbox sees on chain before the hash is reported moves CREATED straight to FUNDED, so a
 * PENDING right after CREATED is optional (that race is the service's to decide).
 */
export async function expectWebhooks(id: string, expected: string[]) {
  const withoutFirstPending = (list: string[]) =>
    list.filter((s, i) => !(s === 'PENDING' && i === 1 && list[0] === 'CREATED'))
  await expect
    .poll(async () => withoutFirstPending(await deliveredStatuses(id)), { intervals: [250] })
    .toEqual(withoutFirstPending(expected))
  // Nothing failed or is still waiting to be delivered.
  await expect
    .poll(async () => (await deliveries(id)).filter((d) => d.state !== 'DELIVERED').length)
    .toBe(0)
  return deliveredStatuses(id)
}

/**
 * The service and the chain agree the session was paid exactly once: FUNDED, one transfer of the
 * amount into its one-time wallet (the funding transaction), and the merchant's webhooks in order.
 */
export async function expectPaidOnce(id: string) {
  const session = await waitForStatus(id, 'FUNDED')
  const [log] = await expectTransfers(session.oneTimeWalletAddress, 1)
  expect(log!.args.value).toBe(units(session.amount))
  expect(log!.transactionHash).toBe(session.fundingTransactionHash)
  await expectWebhooks(id, ['CREATED', 'PENDING', 'FUNDED'])
  return session
}
