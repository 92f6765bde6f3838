// Relay benchmark: sessions paid gaslessly at the same moment through createRelayHandler (over
// HTTP, toNodeListener, the durable file store) against the sandbox. Checks that every session is
// funded by exactly one transfer and nothing answers 5xx; prints p50/p95 of the relay's answer
// and the relayer's gas per payment, for plain (EOA) payers and a contract payer (ERC-1271) on the
// allow-list. The sandbox runs in this process, anvil in its own.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '@paysession/sandbox'
import { createFileRelayStore, toNodeListener } from '@paysession/server/node'
import { createTokenBucketRateLimit } from '@paysession/server/relay'
import type { Address, Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { relayKit, type Signed } from '../packages/server/test/relayHelpers.ts'
import { smoke } from './lib/ports.ts'
import { percentile, printTable } from './lib/sandbox-process.ts'

const SESSIONS = Number(process.env.BENCH_RELAY_SESSIONS ?? (smoke ? 3 : 100))

const sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, interval: 100 })
const dir = mkdtempSync(join(tmpdir(), 'paysession-bench-relay-'))
// The relay's test kit (customers, sessions, authorizations), as its tests use it.
const kit = relayKit(sb)
// A contract payer: the sandbox's test smart account (ERC-1271, owned by customer 0, funded).
const smartAccount = sb.accounts.smartAccount.address
const ownerKey = sb.customers.find((c) => c.address === sb.accounts.smartAccount.owner)!.privateKey

const relay = kit.relayWith({
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
  const payments: Payment[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const { id, otw } = await kit.session()
    const signed: Signed = await kit.authorize(keyOf(i), otw, { from: fromOf(i) })
    payments.push({ id, otw, body: await kit.relayRequest(id, signed).text() })
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
    if (hash) gas.push((await kit.publicClient.waitForTransactionReceipt({ hash })).gasUsed)
  let funded = 0
  let singleTransfer = 0
  for (const p of payments) {
    if ((await kit.transfersTo(p.otw)).length === 1) singleTransfer++
    for (let i = 0; i < 100; i++) {
      if ((await kit.client.getSession(p.id)).status === 'FUNDED') {
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
  // Customers without ETH, each holding USDC (the smart account holds the sandbox's own).
  const customers: Hex[] = []
  for (let i = 0; i < SESSIONS; i++) customers.push((await kit.customerWithoutGas()).key)
  const rows = [
    await run(
      'EOA (no ETH)',
      await prepare(
        (i) => customers[i]!,
        (i) => privateKeyToAccount(customers[i]!).address,
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
