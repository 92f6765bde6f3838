import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
// tsx runs the CLI from source (no build needed); it is the demo app's dependency, found from there.
const demoApp = join(repo, 'apps/demo')

/** The newest modification time of the files under `dir`. */
const newest = (dir: string) =>
  Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  )

/**
 * How node runs the CLI: its build when scripts/setup.sh built it after the last change to its
 * sources and to those of the workspace packages it loads (as under npm test), else tsx from the
 * sources. Loading the sources through tsx was half of each start's CPU, and these tests start
 * the sandbox dozens of times.
 */
function cliArgs() {
  try {
    const built = statSync(join(repo, 'node_modules/.paysession-setup/build-sandbox')).mtimeMs
    const packages = ['sandbox', 'protocol', 'browser-chain']
    if (packages.every((pkg) => newest(join(repo, 'packages', pkg, 'src')) < built))
      return [join(repo, 'packages/sandbox/dist/cli.js')]
  } catch {}
  return ['--import', 'tsx', join(repo, 'packages/sandbox/src/cli.ts')]
}
const cli = cliArgs()

/** A sandbox running as its own process (`paysession-sandbox start`), so tests can kill -9 it. */
export interface SandboxProcess {
  child: ChildProcess
  apiUrl: string
  rpcUrl: string
  apiKey: string
  /** Everything it printed so far. */
  output: () => string
  /** Resolves when it prints a line containing `text` (or already has). */
  waitFor: (text: string, timeoutMs?: number) => Promise<void>
  /** anvil's pid, from the data folder. */
  anvilPid: () => number
  exited: Promise<number | null>
}

/**
 * Starts `paysession-sandbox start` and resolves once it printed `ready` (default: its banner;
 * before the banner, as at a test pause during setup, the URLs and key are empty).
 */
export async function spawnSandbox(
  dataDir: string,
  env: Record<string, string> = {},
  ready = 'paysession sandbox is running',
): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [...cli, 'start', '--data-dir', dataDir], {
    cwd: demoApp,
    env: {
      ...process.env,
      PAYSESSION_PORT: '0',
      PAYSESSION_CHAIN_PORT: '0',
      PAYSESSION_POLL_INTERVAL_MS: '50',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const waiters = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
    for (const w of waiters) w()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const waitFor = (text: string, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!out.includes(text)) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(
          new Error(`no "${text}" from the sandbox within ${timeoutMs} ms; it printed:\n${out}`),
        )
      }, timeoutMs)
      waiters.add(check)
      void exited.then(() => {
        if (!out.includes(text)) {
          waiters.delete(check)
          clearTimeout(timer)
          reject(new Error(`the sandbox exited before "${text}"; it printed:\n${out}`))
        }
      })
      check()
    })
  await waitFor(ready)
  const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)?.[1] ?? ''
  return {
    child,
    apiUrl: field('API base URL'),
    rpcUrl: field('Chain RPC URL'),
    apiKey: field('Merchant API key'),
    output: () => out,
    waitFor,
    anvilPid: () => JSON.parse(readFileSync(join(dataDir, 'anvil.pid'), 'utf8')).pid,
    exited,
  }
}

/** kill -9, and wait until the process is gone. */
export async function kill9(sb: SandboxProcess) {
  sb.child.kill('SIGKILL')
  await sb.exited
}

export function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    // A zombie still answers signal 0; it is dead for our purposes.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return false
  }
}

/** The sandbox's API as a merchant: status and JSON. */
export function client(sb: { apiUrl: string; apiKey: string }) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sb.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }
}

/** Runs a one-shot CLI command (`webhooks retry`, ...) on a data folder; resolves with what it printed. */
export function runCli(dataDir: string, args: string[]) {
  return new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [...cli, ...args, '--data-dir', dataDir],
      { cwd: demoApp },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  )
}
