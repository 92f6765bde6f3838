// Relay benchmark: sessions paid gaslessly at the same moment through createRelayHandler (over
// HTTP, toNodeListener, the durable file store) against the sandbox. Checks that every session is
// funded by exactly one transfer and nothing answers 5xx; prints p50/p95 of the relay's answer
// and the relayer's gas per payment, for plain (EOA) payers and a contract payer (ERC-1271) on the
// allow-list. The sandbox runs in this process, anvil in its own.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox, transferWithAuthorizationTypes } from '@paysession/sandbox'
import { createPaySessionClient, toNodeListener } from '@paysession/server'
import {
  createFileRelayStore,
  createRelayHandler,
  createTokenBucketRateLimit,
} from '@paysession/server/relay'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, nonceManager, privateKeyToAccount } from 'viem/accounts'
import { percentile, printTable } from './lib/sandbox-process.ts'

const SESSIONS = Number(process.env.BENCH_RELAY_SESSIONS ?? 100)
const artifacts = createRequire(import.meta.url)('@paysession/sandbox/artifacts/contracts.json')
const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

const sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, pollIntervalMs: 100 })
const dir = mkdtempSync(join(tmpdir(), 'paysession-bench-relay-'))
const publicClient = createPublicClient({ transport: http(sb.rpcUrl) })
const client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
const minter = createWalletClient({
  account: privateKeyToAccount(sb.customers[0]!.privateKey, { nonceManager }),
  transport: http(sb.rpcUrl),
})
const mint = (to: Address, amount: string) =>
  minter.writeContract({
    chain: null,
    address: sb.tokens.USDC.address,
    abi: mintAbi,
    functionName: 'mint',
    args: [to, parseUnits(amount, 6)],
  })

// A contract payer: the sandbox's test smart account, owned by customer 2.
const ownerKey = sb.customers[2]!.privateKey
const owner = createWalletClient({
  account: privateKeyToAccount(ownerKey),
  transport: http(sb.rpcUrl),
})
const deployed = await publicClient.waitForTransactionReceipt({
  hash: await owner.deployContract({
    chain: null,
    abi: artifacts.TestSmartAccount.abi,
    bytecode: artifacts.TestSmartAccount.bytecode,
    args: [owner.account.address],
  }),
})
const smartAccount = getAddress(deployed.contractAddress!)

const relay = createRelayHandler({
  client,
  relayer: sb.relayer.privateKey,
  networks: {
    LOCAL: { chainId: sb.chainId, rpcUrl: sb.rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
  },
  store: createFileRelayStore(join(dir, 'relay.json')),
  contractPayers: [smartAccount],
  // Every request of the bench comes from 127.0.0.1: the default would hold it at 20 at once.
  rateLimit: createTokenBucketRateLimit({ ip: { burst: 10_000, perSecond: 1000 } }),
})
const server = createServer(toNodeListener(relay))
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const relayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`

type Payment = { id: string; otw: Address; body: string }

/** Sessions, each with an authorization signed by `keyOf(i)` for `fromOf(i)`. */
async function prepare(keyOf: (i: number) => Hex, fromOf: (i: number) => Address) {
  const now = (await publicClient.getBlock()).timestamp
  const payments: Payment[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const created = await client.createSession({ amount: '1.80', currency: 'USD' })
    const otw = getAddress(created.oneTimeWalletAddress!)
    const message = {
      from: fromOf(i),
      to: otw,
      value: parseUnits('1.80', 6),
      validAfter: 0n,
      validBefore: now + 900n,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signature = await privateKeyToAccount(keyOf(i)).signTypedData({
      domain: {
        name: 'USD Coin (test)',
        version: '2',
        chainId: sb.chainId,
        verifyingContract: sb.tokens.USDC.address,
      },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const authorization = Object.fromEntries(
      Object.entries(message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
    )
    payments.push({
      id: created.paymentSessionId,
      otw,
      body: JSON.stringify({
        paymentSessionId: created.paymentSessionId,
        token: 'USDC',
        authorization,
        signature,
      }),
    })
  }
  return payments
}

/** Posts every payment at the same moment and checks the outcome on chain and at the service. */
async function run(payer: string, payments: Payment[]) {
  const answers = await Promise.all(
    payments.map(async (p) => {
      const t0 = performance.now()
      const res = await fetch(relayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: p.body,
      })
      const json = (await res.json()) as { transactionHash?: Hex }
      return { status: res.status, ms: performance.now() - t0, hash: json.transactionHash }
    }),
  )
  const gas: bigint[] = []
  for (const { hash } of answers)
    if (hash) gas.push((await publicClient.waitForTransactionReceipt({ hash })).gasUsed)
  let funded = 0
  let singleTransfer = 0
  for (const p of payments) {
    const transfers = await publicClient.getContractEvents({
      address: sb.tokens.USDC.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { to: p.otw },
      fromBlock: 0n,
    })
    if (transfers.length === 1) singleTransfer++
    for (let i = 0; i < 100; i++) {
      if ((await client.getSession(p.id)).status === 'FUNDED') {
        funded++
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b)
  const mean = gas.length ? gas.reduce((a, b) => a + b, 0n) / BigInt(gas.length) : 0n
  let max = 0n
  for (const g of gas) if (g > max) max = g
  return {
    payer,
    sessions: payments.length,
    'answered 200': answers.filter((a) => a.status === 200).length,
    '5xx': answers.filter((a) => a.status >= 500).length,
    'one transfer': singleTransfer,
    FUNDED: funded,
    'p50 ms': percentile(ms, 50).toFixed(0),
    'p95 ms': percentile(ms, 95).toFixed(0),
    'gas/payment': mean.toString(),
    'gas max': max.toString(),
  }
}

try {
  const keys = Array.from({ length: SESSIONS }, () => generatePrivateKey())
  const mints = await Promise.all([
    ...keys.map((key) => mint(privateKeyToAccount(key).address, '2')),
    mint(smartAccount, String(2 * SESSIONS)),
  ])
  await Promise.all(mints.map((hash) => publicClient.waitForTransactionReceipt({ hash })))
  const rows = [
    await run(
      'EOA (no ETH)',
      await prepare(
        (i) => keys[i]!,
        (i) => privateKeyToAccount(keys[i]!).address,
      ),
    ),
    await run(
      'contract, allowed',
      await prepare(
        () => ownerKey,
        () => smartAccount,
      ),
    ),
  ]
  printTable(
    `${SESSIONS} sessions paid gaslessly at the same moment, per payer (relay over HTTP, file store, anvil)`,
    rows,
  )
  if (rows.some((r) => r['5xx'] > 0 || r['one transfer'] !== SESSIONS || r.FUNDED !== SESSIONS))
    process.exitCode = 1
} finally {
  server.close()
  await sb.stop()
  rmSync(dir, { recursive: true, force: true })
}
