import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { sleep, systemClock } from '@paysession/protocol'

export interface Anvil {
  /** anvil's JSON-RPC socket: the only way to it (http/chainServer.ts forwards to it). */
  ipcPath: string
  /** Whether anvil's own HTTP port is in a network namespace of its own, unreachable from here. */
  isolated: boolean
  pid: number
  /** Called once if anvil exits without stop() (crash, kill, OOM), with its last output. */
  onExit(listener: (reason: string) => void): void
  stop(): Promise<void>
}

/** Finds the anvil binary shipped in @foundry-rs/anvil's platform package (or PAYSESSION_ANVIL_BIN). */
export function anvilBinary(): string {
  if (process.env.PAYSESSION_ANVIL_BIN) return process.env.PAYSESSION_ANVIL_BIN
  const require = createRequire(import.meta.url)
  const wrapper = createRequire(require.resolve('@foundry-rs/anvil/package.json'))
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const platformPkg = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`
  const bin = join(dirname(wrapper.resolve(platformPkg)), 'bin', 'anvil')
  if (!existsSync(bin)) throw new Error(`anvil binary not found at ${bin}`)
  return bin
}

/**
 * anvil never outlives the Node process that started it, however that process dies
 * (kill -9 included): the shell forks a watcher that holds the read end of a pipe
 * whose only writer is Node, then execs anvil in its own place (so the pid Node sees
 * is anvil's). When Node dies the kernel closes the pipe, the watcher reads EOF and
 * stops anvil: SIGINT, then SIGKILL after 5 s.
 */
const SUPERVISOR = `exec 3<&0
( while read -r _; do :; done
  kill -INT $$ 2>/dev/null
  i=0
  while kill -0 $$ 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  kill -KILL $$ 2>/dev/null ) <&3 >/dev/null 2>&1 &
exec "$@" 3<&- </dev/null`

/** Lines of anvil's output worth a log line (it also prints every RPC method it serves). */
const NOTEWORTHY = /error|warn|panic|fail|fatal|denied|no space/i

/** A folder only this user can open, for anvil's socket (other users of the machine neither). */
export const newSocketPath = () =>
  join(mkdtempSync(join(tmpdir(), 'paysession-chain-')), 'anvil.ipc')

let canIsolate: boolean | undefined
/**
 * Whether anvil can run in a network namespace of its own (Linux with unprivileged user
 * namespaces): its HTTP port then exists only there, and no page, rebound DNS name or port scan
 * of this machine can reach it. Elsewhere it listens on a free port of 127.0.0.1 with CORS off.
 */
function isolation(): boolean {
  if (canIsolate === undefined)
    canIsolate =
      process.platform === 'linux' &&
      process.env.PAYSESSION_ANVIL_NETNS !== '0' &&
      spawnSync('unshare', ['--net', '--map-root-user', 'true'], { stdio: 'ignore' }).status === 0
  return canIsolate
}

/**
 * Starts anvil, optionally from a saved state file, answering JSON-RPC on a unix socket
 * (`ipcPath`, a new one by default). anvil has no Host check and its HTTP server cannot be turned
 * off, so pages reach the chain only through the sandbox's chain port (http/chainServer.ts), which
 * checks Origin and Host and forwards to the socket; anvil's HTTP port is isolated where the
 * system allows it (`isolation`), and has CORS off everywhere.
 */
export async function startAnvil(options: {
  ipcPath?: string | undefined
  loadState?: string | undefined
  blockTime?: number | undefined
  /** Where the pid of this anvil is kept so a later start can stop it if it was left behind. */
  pidFile?: string | undefined
  log?: (message: string) => void
}): Promise<Anvil> {
  const log = options.log ?? (() => {})
  if (options.pidFile) await stopLeftover(options.pidFile, log)
  const ipcPath = options.ipcPath ?? newSocketPath()
  rmSync(ipcPath, { force: true })
  const isolated = isolation()
  const args = [
    '--ipc',
    ipcPath,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    '31337',
    '--no-cors',
  ]
  if (options.loadState) args.push('--load-state', options.loadState)
  if (options.blockTime) args.push('--block-time', String(options.blockTime))
  // unshare execs anvil in its own place, so the pid is still anvil's.
  const command = [...(isolated ? ['unshare', '--net', '--map-root-user'] : []), anvilBinary()]
  const child = spawn('/bin/sh', ['-c', SUPERVISOR, 'paysession-anvil', ...command, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  // The pipe's write end stays open for as long as this process lives; no data is ever sent.
  child.stdin.on('error', () => {})
  let output = ''
  // Its HTTP server starts after the socket: once it listens, the socket answers.
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000)
      if (/Listening on 127\.0\.0\.1:\d+/.test(output)) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code, signal) => {
      reject(new Error(`anvil exited (${code ?? signal}): ${output.slice(-2000).trim()}`))
    })
    child.once('error', reject)
  })
  for (let i = 0; !existsSync(ipcPath) && i < 100; i++) await sleep(systemClock, 50)
  child.removeAllListeners('exit')
  child.stdout.removeAllListeners('data')
  child.stderr.removeAllListeners('data')
  const pid = child.pid!
  if (options.pidFile)
    writeFileSync(
      options.pidFile,
      JSON.stringify({
        pid,
        started: processStart(pid),
        ipcPath,
        owner: process.pid,
        ownerStarted: processStart(process.pid),
      }),
    )

  // After start anvil's own errors (a full disk, a panic) reach the log; the last lines are kept for its exit.
  let tail: string[] = []
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue
      tail = [...tail.slice(-19), line]
      if (NOTEWORTHY.test(line)) log(`anvil: ${line.trim()}`)
    }
  }
  child.stdout.on('data', forward)
  child.stderr.on('data', forward)
  let stopping = false
  const listeners: ((reason: string) => void)[] = []
  child.once('exit', (code, signal) => {
    // Lets the watcher go too (it would otherwise wait for this process to end).
    child.stdin.end()
    if (options.pidFile) rmSync(options.pidFile, { force: true })
    if (stopping) return
    const reason = `anvil exited unexpectedly (${signal ?? `code ${code}`})${tail.length ? `; its last output:\n  ${tail.slice(-5).join('\n  ')}` : ''}`
    for (const l of listeners) l(reason)
  })
  return {
    ipcPath,
    isolated,
    pid,
    onExit: (l) => void listeners.push(l),
    stop: () => {
      stopping = true
      return stopChild(child)
    },
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = systemClock.setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      systemClock.clearTimeout(timer)
      resolve()
    })
    child.kill('SIGINT')
  })
}

/** When a process started (clock ticks since boot on Linux, else ps's start time); undefined when it is gone. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the ")" that ends the command name: state (3), ..., start time (22).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[0] === 'Z' ? undefined : fields[19]
  } catch {}
  try {
    return (
      execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)])
        .toString()
        .trim() || undefined
    )
  } catch {
    return undefined
  }
}

/** argv of a process on Linux ([] when unknown). */
function argv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return []
  }
}

/**
 * An anvil left behind by an earlier crash (this pid file's process, if it is still
 * the same process, or on Linux any anvil serving this data folder's state file) is
 * stopped, so its port and state file are free again.
 */
async function stopLeftover(pidFile: string, log: (message: string) => void) {
  const folder = dirname(pidFile)
  const inUse = (owner: number) =>
    new Error(
      `Another sandbox (pid ${owner}) is using the data folder ${folder}: stop it first, or give this one another --data-dir.`,
    )
  const pids = new Set<number>()
  try {
    const recorded = JSON.parse(readFileSync(pidFile, 'utf8')) as {
      pid: number
      started?: string
      owner?: number
      ownerStarted?: string
    }
    if (recorded.started && processStart(recorded.pid) === recorded.started) {
      if (recorded.owner && processStart(recorded.owner) === recorded.ownerStarted)
        throw inUse(recorded.owner)
      pids.add(recorded.pid)
    }
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('Another sandbox')) throw e
  }
  const stateFile = join(folder, 'chain-state.json')
  if (existsSync('/proc'))
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
      const args = argv(Number(name))
      if (!/(^|\/)anvil$/.test(args[0] ?? '') || !args.includes(stateFile)) continue
      // Still the child of a running Node process: a live sandbox, not a leftover.
      const parent = parentOf(Number(name))
      if (parent && /(^|\/)node$/.test(argv(parent)[0] ?? '')) throw inUse(parent)
      pids.add(Number(name))
    }
  for (const pid of pids) {
    log(`stopping anvil (pid ${pid}) left running by an earlier crash`)
    try {
      process.kill(pid, 'SIGINT')
    } catch {
      continue
    }
    // A process's exit takes real time: the system clock, whatever the service's says.
    const deadline = systemClock.now() + 5000
    while (processStart(pid) !== undefined && systemClock.now() < deadline)
      await sleep(systemClock, 50)
    if (processStart(pid) !== undefined) process.kill(pid, 'SIGKILL')
  }
  rmSync(pidFile, { force: true })
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}
