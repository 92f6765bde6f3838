// Crash tests: the sandbox runs as its own process (and anvil under it); they are killed
// with SIGKILL at chosen moments and started again on the same data folder.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { type Address, createPublicClient, http, parseAbiItem } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, expect, test } from 'vitest'
import { ACCOUNTS_DEPLOYER_KEY } from '../src/chain/accounts.js'
import { anvilBinary } from '../src/chain/anvil.js'
import { PROXY_ADMIN_KEY } from '../src/chain/fiatToken.js'
import { CUSTOMER_KEYS, customers, transferToken } from '../src/chain/pay.js'
import { DEPLOYER_KEY, erc20Abi, LOCAL_TOKENS, tokenBySymbol } from '../src/chain/tokens.js'
import { client, isAlive, kill9, runCli, type SandboxProcess, spawnSandbox } from './child.js'
import { createSession, sleep, start, units, waitForSession, waitUntil } from './helpers.js'
import { receiver } from './receiver.js'

const USDC = tokenBySymbol('USDC')!.address
const SECRET = 'whsec_crash'
const dirs: string[] = []
const running: SandboxProcess[] = []
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'paysession-crash-'))
  dirs.push(d)
  return d
}
async function launch(dataDir: string, env: Record<string, string> = {}) {
  const sb = await spawnSandbox(dataDir, { PAYSESSION_WEBHOOK_SECRET: SECRET, ...env })
  running.push(sb)
  return sb
}
afterEach(async () => {
  for (const sb of running.splice(0)) if (sb.child.exitCode === null) await kill9(sb)
})
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const chainOf = (sb: SandboxProcess) => createPublicClient({ transport: http(sb.rpcUrl) })
const balanceOf = (sb: SandboxProcess, owner: Address) =>
  chainOf(sb).readContract({
    address: USDC,
    abi: [parseAbiItem('function balanceOf(address) view returns (uint256)')],
    functionName: 'balanceOf',
    args: [owner],
  })
/** Every USDC transfer out of `from` on chain now, as [to, value]. */
async function transfersFrom(sb: SandboxProcess, from: Address) {
  const logs = await chainOf(sb).getLogs({
    address: USDC,
    event: transferEvent,
    args: { from },
    fromBlock: 0n,
  })
  return logs.map((l) => [l.args.to!.toLowerCase(), l.args.value!] as const)
}

async function session(sb: SandboxProcess, id: string) {
  const res = await client(sb)('GET', `/payment-sessions/${id}`)
  expect(res.status).toBe(200)
  return res.json
}
const waitStatus = (sb: SandboxProcess, id: string, status: string, timeoutMs = 20_000) =>
  waitUntil(
    () => session(sb, id),
    (s) => s.status === status,
    timeoutMs,
    `${id} ${status}`,
  )

/** 10.00 USDC from sandbox customer `payer` to `to` (a session's one-time wallet). */
const payTen = (sb: SandboxProcess, payer: number, to: Address) =>
  transferToken({
    rpcUrl: sb.rpcUrl,
    privateKey: CUSTOMER_KEYS[payer]!,
    token: USDC,
    to,
    value: units('10.00'),
  })

async function fundedSession(sb: SandboxProcess, payer: number) {
  const created = await client(sb)('POST', '/payment-sessions', {
    amount: '10.00',
    currency: 'USD',
  })
  expect(created.status).toBe(200)
  const s = created.json
  await payTen(sb, payer, s.oneTimeWalletAddress)
  await waitStatus(sb, s.paymentSessionId, 'FUNDED')
  return s as { paymentSessionId: string; oneTimeWalletAddress: Address }
}

const treasuryOf = async (sb: SandboxProcess) =>
  (await client(sb)('GET', '/sandbox/info')).json.treasury as Address

/** USDC is neither made nor lost: what the payer lacks is at the one-time wallet or the treasury. */
async function expectConserved(sb: SandboxProcess, payer: number, otws: Address[]) {
  const owners = [customers()[payer]!.address, ...otws, await treasuryOf(sb)]
  const all = await Promise.all(owners.map((o) => balanceOf(sb, o)))
  expect(all.reduce((a, b) => a + b, 0n)).toBe(units('10000'))
}

test('kill -9 of the Node process after a capture is accepted, webhook receiver down: anvil goes too; the restart captures once and delivers every webhook in order', async () => {
  const dir = newDir()
  const hooks = receiver()
  const url = await hooks.url()
  // The receiver is down the whole first run; two quick attempts stand for minutes of retries.
  const first = await launch(dir, {
    PAYSESSION_WEBHOOK_URL: url,
    PAYSESSION_WEBHOOK_MAX_ATTEMPTS: '2',
    PAYSESSION_WEBHOOK_BASE_DELAY_MS: '10',
  })
  const anvilPid = first.anvilPid()
  const s = await fundedSession(first, 1)
  const accepted = await client(first)('POST', `/payment-sessions/${s.paymentSessionId}/captures`, {
    requestId: 'c1',
    captureAmount: '6.00',
    isFinalCapture: true,
  })
  expect(accepted.status).toBe(202)
  await kill9(first)
  // anvil stops with the process that started it.
  await waitUntil(
    async () => isAlive(anvilPid),
    (alive) => !alive,
    8000,
    'anvil gone',
  )

  await hooks.up()
  const second = await launch(dir, { PAYSESSION_WEBHOOK_URL: url })
  const done = await waitStatus(second, s.paymentSessionId, 'SUCCEEDED')
  expect(done).toMatchObject({ capturedAmount: '6.00', capturableAmount: '0.00' })
  const treasury = await treasuryOf(second)
  const payer = customers()[1]!.address.toLowerCase()
  expect(await transfersFrom(second, s.oneTimeWalletAddress)).toEqual([
    [treasury.toLowerCase(), units('6.00')],
    [payer, units('4.00')],
  ])
  await expectConserved(second, 1, [s.oneTimeWalletAddress])
  await waitUntil(
    async () => hooks.statuses(s.paymentSessionId),
    (st) => st.length >= 4,
    10_000,
    'webhooks',
  )
  expect(hooks.statuses(s.paymentSessionId)).toEqual([
    'CREATED',
    'FUNDED',
    'CAPTURING',
    'SUCCEEDED',
  ])
  await hooks.down()
})

test('webhook deliveries that used up their attempts are listed, and `webhooks retry` redelivers them in order', async () => {
  const dir = newDir()
  const hooks = receiver()
  const sb = await launch(dir, {
    PAYSESSION_WEBHOOK_URL: await hooks.url(),
    PAYSESSION_WEBHOOK_MAX_ATTEMPTS: '1',
  })
  const s = await fundedSession(sb, 0)
  const failed = await waitUntil(
    async () => (await client(sb)('GET', '/sandbox/webhooks')).json.data,
    (list: any[]) => list.filter((w) => w.state === 'FAILED').length === 2,
    10_000,
    'two failed deliveries',
  )
  const listed = await runCli(dir, ['webhooks', 'list'])
  for (const w of failed) expect(listed).toContain(w.id)
  await hooks.up()
  expect(await runCli(dir, ['webhooks', 'retry'])).toContain(
    '2 given-up webhook deliveries queued again, oldest first; 0 superseded',
  )
  await waitUntil(
    async () => hooks.statuses(s.paymentSessionId),
    (st) => st.length >= 2,
    10_000,
    'redelivery',
  )
  expect(hooks.statuses(s.paymentSessionId)).toEqual(['CREATED', 'FUNDED'])
  await hooks.down()
})

test('kill -9 with a backlog: the restart sends what waited in order, and never a given-up update after a later one of its session', async () => {
  const dir = newDir()
  const hooks = receiver()
  const url = await hooks.url()
  // One attempt each, so "given up" happens within the test (by default after 24 hours).
  const first = await launch(dir, {
    PAYSESSION_WEBHOOK_URL: url,
    PAYSESSION_WEBHOOK_MAX_ATTEMPTS: '1',
  })
  // Session a: CREATED is given up while the receiver is down; FUNDED is delivered once it is up.
  const a = (await client(first)('POST', '/payment-sessions', { amount: '10.00', currency: 'USD' }))
    .json
  const givenUp = () => client(first)('GET', '/sandbox/webhooks').then((r) => r.json.data as any[])
  await waitUntil(givenUp, (ws) => ws.some((w) => w.state === 'FAILED'), 10_000, 'CREATED given up')
  await hooks.up()
  await payTen(first, 0, a.oneTimeWalletAddress)
  await waitStatus(first, a.paymentSessionId, 'FUNDED')
  await waitUntil(
    async () => hooks.statuses(a.paymentSessionId),
    (st) => st.includes('FUNDED'),
    10_000,
    'FUNDED delivered',
  )
  // Session b: created and paid while the receiver is down again: both updates given up.
  await hooks.down()
  const b = (await client(first)('POST', '/payment-sessions', { amount: '10.00', currency: 'USD' }))
    .json
  await payTen(first, 0, b.oneTimeWalletAddress)
  await waitStatus(first, b.paymentSessionId, 'FUNDED')
  await waitUntil(
    givenUp,
    (ws) =>
      ws.filter((w) => w.state === 'FAILED' && w.paymentSessionId === b.paymentSessionId).length ===
      2,
    10_000,
    "b's updates given up",
  )
  await kill9(first)

  await hooks.up()
  const second = await launch(dir, { PAYSESSION_WEBHOOK_URL: url })
  await waitUntil(
    async () => hooks.statuses(b.paymentSessionId),
    (st) => st.length >= 2,
    10_000,
    "b's updates after the restart",
  )
  expect(hooks.statuses(b.paymentSessionId)).toEqual(['CREATED', 'FUNDED'])
  expect(second.output()).toContain('superseded: a later update of their session was delivered')
  const log = (await client(second)('GET', '/sandbox/webhooks')).json.data as any[]
  const created = log.find(
    (w) => w.paymentSessionId === a.paymentSessionId && w.body.params[0].status === 'CREATED',
  )
  expect(created.state).toBe('SUPERSEDED')
  // a's CREATED never arrives after its FUNDED.
  await sleep(1000)
  expect(hooks.statuses(a.paymentSessionId)).toEqual(['FUNDED'])
  expect(await runCli(dir, ['webhooks'])).toContain('backlog: none, every update was delivered')
  await hooks.down()
})

test('kill -9 between recording a transfer and broadcasting it: the restart broadcasts the stored transaction, one transfer each', async () => {
  const dir = newDir()
  const first = await launch(dir, { PAYSESSION_TEST_PAUSE_AT: 'after-record' })
  const s = await fundedSession(first, 2)
  const accepted = await client(first)('POST', `/payment-sessions/${s.paymentSessionId}/captures`, {
    requestId: 'c1',
    captureAmount: '7.00',
    isFinalCapture: true,
  })
  expect(accepted.status).toBe(202)
  await first.waitFor('PAYSESSION_TEST_PAUSED capture:')
  expect(await transfersFrom(first, s.oneTimeWalletAddress)).toEqual([])
  const stored = (await session(first, s.paymentSessionId)).captures[0]
  expect(stored.status).toBe('CAPTURING')
  await kill9(first)

  const second = await launch(dir)
  const done = await waitStatus(second, s.paymentSessionId, 'SUCCEEDED')
  const treasury = (await treasuryOf(second)).toLowerCase()
  const payer = customers()[2]!.address.toLowerCase()
  expect(await transfersFrom(second, s.oneTimeWalletAddress)).toEqual([
    [treasury, units('7.00')],
    [payer, units('3.00')],
  ])
  expect(done.captures).toHaveLength(1)
  expect(done.captures[0].status).toBe('CAPTURED')
  await expectConserved(second, 2, [s.oneTimeWalletAddress])
})

test('kill -9 of anvil and Node while a payment is mined: after the restart a session is FUNDED exactly when its funds are on chain', async () => {
  const dir = newDir()
  let sb = await launch(dir)
  const otws: Address[] = []
  // 0 ms: killed before the sandbox saw the payment; 1500 ms: after it recorded it.
  for (const delayMs of [0, 100, 1500]) {
    const created = (
      await client(sb)('POST', '/payment-sessions', { amount: '10.00', currency: 'USD' })
    ).json
    otws.push(created.oneTimeWalletAddress)
    await payTen(sb, 3, created.oneTimeWalletAddress)
    await sleep(delayMs)
    const anvilPid = sb.anvilPid()
    process.kill(anvilPid, 'SIGKILL')
    await kill9(sb)

    sb = await launch(dir)
    // Give the watcher time to see the payment if the chain kept it.
    await sleep(500)
    const s = await session(sb, created.paymentSessionId)
    const onChain = await balanceOf(sb, created.oneTimeWalletAddress)
    expect(s.status === 'FUNDED', `${s.status} with ${onChain} on chain`).toBe(
      onChain === units('10.00'),
    )
    expect(['CREATED', 'FUNDED']).toContain(s.status)
    await expectConserved(sb, 3, otws)
    if (s.status === 'CREATED') {
      // The chain lost the payment (it was never saved): paying again works.
      await payTen(sb, 3, created.oneTimeWalletAddress)
      await waitStatus(sb, created.paymentSessionId, 'FUNDED')
    }
  }
  // Every session is funded once, and the money adds up.
  for (const otw of otws) expect(await balanceOf(sb, otw)).toBe(units('10.00'))
  await expectConserved(sb, 3, otws)
}, 90_000)

test('kill -9 of anvil alone, with a capture in flight: the sandbox says so, restarts it from its saved state, and the capture completes once', async () => {
  const dir = newDir()
  const sb = await launch(dir)
  const s = await fundedSession(sb, 4)
  expect((await fetch(`${sb.apiUrl}/health`)).status).toBe(200)
  const first = await client(sb)('POST', `/payment-sessions/${s.paymentSessionId}/captures`, {
    requestId: 'in-flight',
    captureAmount: '4.00',
  })
  expect(first.status).toBe(202)
  process.kill(sb.anvilPid(), 'SIGKILL')
  await sb.waitFor('anvil exited unexpectedly')
  await sb.waitFor('anvil restarted from its last saved state')
  const health = await fetch(`${sb.apiUrl}/health`)
  expect(health.status).toBe(200)
  expect(await health.json()).toMatchObject({ ok: true, chain: 'running', chainState: 'saved' })
  await waitUntil(
    () => session(sb, s.paymentSessionId),
    (x) => x.status === 'FUNDED' && x.capturedAmount === '4.00',
    20_000,
    'first capture',
  )
  const rest = await client(sb)('POST', `/payment-sessions/${s.paymentSessionId}/captures`, {
    requestId: 'rest',
    captureAmount: '6.00',
    isFinalCapture: true,
  })
  expect(rest.status).toBe(202)
  await waitStatus(sb, s.paymentSessionId, 'SUCCEEDED')
  const treasury = (await treasuryOf(sb)).toLowerCase()
  expect(await transfersFrom(sb, s.oneTimeWalletAddress)).toEqual([
    [treasury, units('4.00')],
    [treasury, units('6.00')],
  ])
  await expectConserved(sb, 4, [s.oneTimeWalletAddress])
})

test('an anvil left running for this data folder is stopped at start; a port taken by another program gets a clear message', async () => {
  const dir = newDir()
  const first = await launch(dir)
  await kill9(first)
  // An orphan as an older sandbox left it: anvil serving this folder's state file, its parent gone.
  const orphanPid = await new Promise<number>((resolve) => {
    const sh = spawn('/bin/sh', [
      '-c',
      `"$0" --port 0 --state "$1" >/dev/null 2>&1 & echo $!`,
      anvilBinary(),
      join(dir, 'chain-state.json'),
    ])
    sh.stdout.on('data', (d) => resolve(Number(String(d).trim())))
  })
  await sleep(300)
  expect(isAlive(orphanPid)).toBe(true)
  const second = await launch(dir)
  expect(second.output()).toContain(`stopping anvil (pid ${orphanPid})`)
  expect(isAlive(orphanPid)).toBe(false)
  // A second sandbox on a folder in use is refused; the running one is left alone.
  await expect(launch(dir)).rejects.toThrow(/Another sandbox \(pid \d+\) is using the data folder/)
  expect((await fetch(`${second.apiUrl}/health`)).status).toBe(200)
  await kill9(second)

  const blocker = createServer()
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
  const port = (blocker.address() as AddressInfo).port
  await expect(launch(dir, { PAYSESSION_CHAIN_PORT: String(port) })).rejects.toThrow(
    `Port ${port} is in use by another program, so the local chain (anvil) cannot listen on it. Stop that program, or set PAYSESSION_CHAIN_PORT (chainPort) to a free port.`,
  )
  blocker.close()
})

test('a damaged chain state file: the previous good copy is used, or the start stops with what to do', async () => {
  const dir = newDir()
  const first = await launch(dir)
  const s = await fundedSession(first, 0)
  await kill9(first)
  writeFileSync(join(dir, 'chain-state.json'), '{"half a fi')
  const second = await launch(dir)
  expect(second.output()).toContain('is damaged')
  // The previous copy may predate the payment: then the session is ERROR, never FUNDED without funds.
  await sleep(500)
  const st = await session(second, s.paymentSessionId)
  const onChain = await balanceOf(second, s.oneTimeWalletAddress)
  expect(st.status).toBe(onChain === units('10.00') ? 'FUNDED' : 'ERROR')
  await kill9(second)
  for (const f of ['chain-state.json', 'chain-state.json.prev', 'chain-state.json.damaged'])
    writeFileSync(join(dir, f), 'garbage')
  await expect(launch(dir)).rejects.toThrow(/no good previous copy/)
})

test('a chain state file that cannot be written: /health says so at once and no payment is recorded until it can be', async () => {
  const dir = newDir()
  const sb = await start({ dataDir: dir })
  try {
    // The temporary file's name taken by a folder: every save fails, as on a full or read-only disk.
    mkdirSync(join(dir, 'chain-state.json.tmp'))
    const s = await createSession(sb)
    await sb.pay(s.paymentSessionId)
    const health = await waitUntil(
      async () => fetch(`${sb.apiUrl}/health`),
      (res) => res.status === 503,
      5000,
      'health 503',
    )
    expect((await health.json()).chainState).toMatch(/cannot write the chain state/)
    await sleep(300)
    const unpaid = await waitForSession(sb, s.paymentSessionId, () => true)
    expect(unpaid.status).toBe('CREATED')
    rmSync(join(dir, 'chain-state.json.tmp'), { recursive: true })
    await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect((await fetch(`${sb.apiUrl}/health`)).status).toBe(200)
  } finally {
    await sb.stop()
  }
})

test('a persistent SQLite error backs off: one log line per interval, and work resumes once it is fixed', async () => {
  const dir = newDir()
  const lines: string[] = []
  const sb = await start({ dataDir: dir, log: (m) => lines.push(m) })
  try {
    const other = new Database(join(dir, 'sandbox.db'))
    // Every scan now fails where it records the head it scanned.
    other.exec('DROP TABLE scanned_heads')
    const s = await createSession(sb)
    await sb.pay(s.paymentSessionId)
    await sleep(1500)
    const errors = lines.filter((l) => l.includes('scanned_heads'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^background: /)
    other.exec('CREATE TABLE scanned_heads (number INTEGER PRIMARY KEY, hash TEXT NOT NULL)')
    other.close()
    await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
  } finally {
    await sb.stop()
  }
})

/** What a complete first setup left on chain: each token's code, each holder's balances, the deployers' nonces. */
async function setupOnChain(sb: SandboxProcess) {
  const chain = chainOf(sb)
  const info = (await client(sb)('GET', '/sandbox/info')).json
  const holders: Address[] = [...info.customers, info.smartAccount.address, info.safe.address]
  const balances: Record<string, bigint[]> = {}
  const code: Record<string, string | undefined> = {}
  for (const token of LOCAL_TOKENS) {
    code[token.symbol] = await chain.getCode({ address: token.address })
    balances[token.symbol] = await Promise.all(
      holders.map((owner) =>
        chain.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [owner],
        }),
      ),
    )
  }
  const nonces = await Promise.all(
    [DEPLOYER_KEY, ACCOUNTS_DEPLOYER_KEY, PROXY_ADMIN_KEY].map((key) =>
      chain.getTransactionCount({ address: privateKeyToAccount(key).address }),
    ),
  )
  return { code, balances, nonces }
}

test('kill -9 during the first start (tokens half deployed, customers half funded, the chain state saved in between): the next start completes the setup exactly once, and a payment goes through', async () => {
  const reference = await launch(newDir())
  const complete = await setupOnChain(reference)
  await kill9(reference)
  // Every holder (5 customers, the smart account, the Safe) got 10,000 of each token, once.
  for (const token of LOCAL_TOKENS) {
    expect(complete.code[token.symbol]?.length).toBeGreaterThan(2)
    expect(complete.balances[token.symbol]).toEqual(Array(7).fill(10_000n * 10n ** 6n))
  }

  // Setup steps: 1-6 the FiatToken implementation (library, implementation, locked); 7-9 deploy
  // USDC, USDT, EURC; 10-23 initialize USDC and EURC; 24-38 fund the customers; 39-46 the test
  // accounts. resumes: the saved chain holds part of one key's steps, and the log says so.
  for (const [at, resumes] of [
    ['setup-saved:1', true],
    ['setup-saved:8', true],
    ['setup-saved:15', true],
    ['setup-saved:30', true],
    ['setup-saved:38', false],
    ['setup-saved:43', true],
    // Not saved: the folder holds no chain yet (the first save follows the setup); a new one starts.
    ['setup:10', false],
  ] as const) {
    const dir = newDir()
    const paused = await spawnSandbox(
      dir,
      { PAYSESSION_TEST_PAUSE_AT: at },
      'PAYSESSION_TEST_PAUSED setup:',
    )
    running.push(paused)
    await kill9(paused)

    const sb = await launch(dir)
    expect(sb.output().includes('setup cut short'), at).toBe(resumes)
    expect(await setupOnChain(sb), at).toEqual(complete)
    const s = await fundedSession(sb, 0)
    const capture = await client(sb)('POST', `/payment-sessions/${s.paymentSessionId}/captures`, {
      requestId: 'c1',
      captureAmount: '10.00',
      isFinalCapture: true,
    })
    expect(capture.status).toBe(202)
    await waitStatus(sb, s.paymentSessionId, 'SUCCEEDED')
    await kill9(sb)
  }
}, 240_000)

test("anvil killed during the first start: the start ends with anvil's reason, not a setup step left waiting", async () => {
  const paused = await spawnSandbox(
    newDir(),
    { PAYSESSION_TEST_PAUSE_AT: 'setup:3' },
    'PAYSESSION_TEST_PAUSED setup:',
  )
  running.push(paused)
  process.kill(paused.anvilPid(), 'SIGKILL')
  const code = await Promise.race([
    paused.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 15_000)),
  ])
  expect(code).toBe(1)
  expect(paused.output()).toContain('The sandbox could not start: anvil exited unexpectedly')
}, 60_000)
