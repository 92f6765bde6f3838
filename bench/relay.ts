// Relay benchmark: sessions paid gaslessly at the same moment through createRelayHandler (over
// HTTP, toNodeListener, the durable file store) against the sandbox. Checks that every session is
// funded by exactly one transfer and nothing answers 5xx; prints p50/p95 of the relay's answer
// and the relayer's gas per payment, for plain (EOA) payers and a contract payer (ERC-1271) on the
// allow-list. The sandbox runs in this process, anvil in its own.
//
// Then many instances: relay processes behind a round-robin proxy, sharing one Postgres (started
// here), each session paid with two authorizations sent to different instances at once: one
// process with one relayer key, four processes with one key, four processes with four keys, and
// four processes with four keys with one process SIGKILLed mid-run and restarted. Wanted: every
// session funded exactly once, none paid twice, no two transactions on one nonce, no session left
// unpaid, no 5xx but the crashed instance's; four processes on one key no slower than one, and
// four keys at least three times the payments per second of one.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '@paysession/sandbox'
import { createFileRelayStore, toNodeListener } from '@paysession/server/node'
import { createTokenBucketRateLimit } from '@paysession/server/relay'
import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { relayKit, type Signed } from '../packages/server/test/relayHelpers.ts'
import { startPostgres } from '../scripts/services.mjs'
import { smoke } from './lib/ports.ts'
import {
  type Instance,
  killInstance,
  roundRobinProxy,
  startInstance,
} from './lib/relayInstances.ts'
import { percentile, printTable } from './lib/sandbox-process.ts'

const SESSIONS = Number(process.env.BENCH_RELAY_SESSIONS ?? (smoke ? 3 : 100))
const SHARED_SESSIONS = Number(process.env.BENCH_RELAY_SHARED_SESSIONS ?? (smoke ? 4 : 200))

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
async function run(payer: string, payments: Payment[], oneAfterAnother = false) {
  const pay = async (p: Payment) => {
    const t0 = performance.now()
    const res = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: p.body,
    })
    const json = (await res.json()) as { transactionHash?: Hex }
    return { status: res.status, ms: performance.now() - t0, hash: json.transactionHash }
  }
  // One payer has one payment in flight at a time (the relay's bound per payer): its sessions
  // are paid one after another, each once the one before is mined.
  const answers: Awaited<ReturnType<typeof pay>>[] = []
  if (oneAfterAnother)
    for (const p of payments) {
      const answer = await pay(p)
      answers.push(answer)
      if (answer.hash) await kit.publicClient.waitForTransactionReceipt({ hash: answer.hash })
    }
  else answers.push(...(await Promise.all(payments.map(pay))))
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

type Paired = { id: string; otw: Address; bodies: [string, string] }

/** Sessions, each with two authorizations of its customer (two nonces) for two instances. */
async function preparePairs(customers: Hex[]): Promise<Paired[]> {
  const payments: Paired[] = []
  for (const key of customers) {
    const { id, otw } = await kit.session()
    const [a, b] = [await kit.authorize(key, otw), await kit.authorize(key, otw)]
    payments.push({
      id,
      otw,
      bodies: [await kit.relayRequest(id, a).text(), await kit.relayRequest(id, b).text()],
    })
  }
  return payments
}

/**
 * Posts both authorizations of every session at once (one after the other, so the proxy sends
 * them to different instances), then, as a checkout would, posts them again while a session has
 * neither a hash nor a transfer (its instance died): until one is answered 200.
 */
async function runShared(
  label: string,
  url: string,
  payments: Paired[],
  crash?: () => Promise<void>,
) {
  const statuses: number[] = []
  const firstMs: number[] = []
  const hashes = new Set<Hex>()
  const post = async (body: string) => {
    const t0 = performance.now()
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const json = (await res.json().catch(() => ({}))) as { transactionHash?: Hex }
      statuses.push(res.status)
      if (json.transactionHash) hashes.add(json.transactionHash)
      return { status: res.status, ms: performance.now() - t0 }
    } catch {
      statuses.push(599)
      return { status: 599, ms: performance.now() - t0 }
    }
  }
  const crashed = crash?.()
  const started = performance.now()
  await Promise.all(
    payments.map(async (p) => {
      const first = await Promise.all(p.bodies.map(post))
      firstMs.push(...first.map((a) => a.ms))
      if (first.some((a) => a.status === 200)) return
      for (let round = 0; round < 90; round++) {
        if ((await kit.transfersTo(p.otw)).length > 0) return
        await new Promise((resolve) => setTimeout(resolve, 1000))
        const again = await Promise.all(p.bodies.map(post))
        if (again.some((a) => a.status === 200)) return
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  await crashed
  // Per relayer key: four keys each have their own nonce 5.
  const nonces = new Map<string, number>()
  let dropped = 0
  for (const hash of hashes) {
    try {
      const receipt = await kit.publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 })
      const { from, nonce } = await kit.publicClient.getTransaction({
        hash: receipt.transactionHash,
      })
      const key = `${from}:${nonce}`
      nonces.set(key, (nonces.get(key) ?? 0) + 1)
    } catch {
      dropped++
    }
  }
  let once = 0
  let twice = 0
  let stuck = 0
  for (const p of payments) {
    const transfers = (await kit.transfersTo(p.otw)).length
    if (transfers === 1) once++
    else if (transfers > 1) twice++
    else stuck++
  }
  const ms = firstMs.sort((a, b) => a - b)
  return {
    relay: label,
    sessions: payments.length,
    'funded once': once,
    'paid twice': twice,
    stuck,
    'nonce collisions': [...nonces.values()].filter((n) => n > 1).length + dropped,
    '5xx': statuses.filter((s) => s >= 500).length,
    'answered 409': statuses.filter((s) => s === 409).length,
    'p50 ms': percentile(ms, 50).toFixed(0),
    'p95 ms': percentile(ms, 95).toFixed(0),
    'payments/s': (once / seconds).toFixed(1),
  }
}

const pg = await startPostgres()
const instances: Instance[] = []
try {
  // Customers without ETH, each holding USDC (the smart account holds the sandbox's own).
  const customers: Hex[] = []
  for (let i = 0; i < Math.max(SESSIONS, SHARED_SESSIONS); i++)
    customers.push((await kit.customerWithoutGas()).key)
  const rows = [
    await run(
      'EOA (no ETH)',
      await prepare(
        (i) => customers[i]!,
        (i) => privateKeyToAccount(customers[i]!).address,
      ),
    ),
    await run(
      'one contract payer, allowed, one after another',
      await prepare(
        () => ownerKey,
        () => smartAccount,
      ),
      true,
    ),
  ]
  printTable(
    `${SESSIONS} sessions paid gaslessly, per payer: a payer each at the same moment, or one payer (relay over HTTP, file store, anvil)`,
    rows,
  )
  if (rows.some((r) => r['5xx'] > 0 || r['one transfer'] !== SESSIONS || r.FUNDED !== SESSIONS))
    process.exitCode = 1

  // Three more relayer keys, funded like the sandbox's own.
  const keys: Hex[] = [sb.relayer.privateKey]
  for (let i = 1; i < 4; i++) {
    const key = generatePrivateKey()
    await kit.fund(privateKeyToAccount(key).address)
    keys.push(key)
  }
  const configWith = (relayer: Hex | Hex[]) => ({
    apiUrl: sb.apiUrl,
    apiKey: sb.apiKey,
    relayer,
    networks: {
      LOCAL: { chainId: sb.chainId, rpcUrl: sb.rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
    },
    store: 'postgres' as const,
    storeUrl: pg.url,
  })
  const shared = customers.slice(0, SHARED_SESSIONS)
  /** `count` processes with `relayer`, behind a round-robin proxy; `crash` kills one mid-run. */
  async function processes(label: string, count: number, relayer: Hex | Hex[], crash = false) {
    const config = configWith(relayer)
    const started = await Promise.all(Array.from({ length: count }, () => startInstance(config)))
    instances.push(...started)
    const proxy = await roundRobinProxy(() => started.map((i) => i.port))
    try {
      return await runShared(
        label,
        proxy.url,
        await preparePairs(shared),
        crash
          ? async () => {
              // Killed once some answers are in, and restarted on its port.
              await new Promise((resolve) => setTimeout(resolve, smoke ? 50 : 1500))
              await killInstance(started[1]!, 'SIGKILL')
              const restarted = await startInstance(config, started[1]!.port)
              instances.push(restarted)
              started[1] = restarted
            }
          : undefined,
      )
    } finally {
      await proxy.close()
      await Promise.all(started.map((i) => killInstance(i, 'SIGTERM')))
    }
  }
  const oneRow = await processes('1 process, 1 key', 1, keys[0]!)
  const fourRow = await processes('4 processes, 1 key', 4, keys[0]!)
  const keysRow = await processes('4 processes, 4 keys', 4, keys)
  const crashRow = await processes('4 processes, 4 keys, one SIGKILLed', 4, keys, true)
  const sharedRows = [oneRow, fourRow, keysRow, crashRow]
  printTable(
    `${SHARED_SESSIONS} sessions, two authorizations each to different relay processes behind a round-robin proxy (one Postgres, anvil)`,
    sharedRows,
  )
  const pps = (row: typeof oneRow) => Number(row['payments/s'])
  console.log(
    `4 processes on 1 key: ${(pps(fourRow) / pps(oneRow)).toFixed(2)}× the payments per second of 1 process (wanted ≥ 1); 4 keys: ${(pps(keysRow) / pps(fourRow)).toFixed(2)}× those of 1 key (wanted ≥ 3)`,
  )
  // A session paid twice, stuck or on a reused nonce fails the run, in every row.
  if (
    sharedRows.some(
      (r) =>
        r['funded once'] !== SHARED_SESSIONS || r['paid twice'] || r.stuck || r['nonce collisions'],
    ) ||
    [oneRow, fourRow, keysRow].some((r) => r['5xx'])
  )
    process.exitCode = 1
} finally {
  await Promise.all(instances.map((i) => killInstance(i, 'SIGKILL')))
  server.close()
  await sb.stop()
  await pg.stop()
  rmSync(dir, { recursive: true, force: true })
}
