import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(
  new URL('../../packages/sandbox/bin/paysession-sandbox.js', import.meta.url),
)

/**
 * Spawns a Node process and resolves once its stdout has printed `ready`, with what it printed
 * by then; stop() sends Ctrl-C.
 */
export async function spawnUntilReady(args: string[], ready: string, env: NodeJS.ProcessEnv = {}) {
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  })
  const output = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      if (out.includes(ready)) resolve(out)
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)))
  })
  child.stdout!.resume()
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGINT')
    await exited
  }
  return { output, stop }
}

/** The merchant API key a sandbox (or the demo) printed at start: its data folder's own. */
export function printedApiKey(output: string): string {
  const key = /(?:Merchant API key|Sandbox API\s+\S+\s+key)\s+(\S+)/.exec(output)?.[1]
  if (!key) throw new Error(`no API key in what the sandbox printed:\n${output}`)
  return key
}

/** A fresh temporary data folder, removed by the returned function. */
export function tempDataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'paysession-bench-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Runs the sandbox CLI in its own process (as a merchant would), so load and server don't share a CPU thread. */
export async function startSandboxProcess(port: number, chainPort: number) {
  const data = tempDataDir()
  const { output, stop } = await spawnUntilReady(
    [
      CLI,
      'start',
      '--port',
      String(port),
      '--chain-port',
      String(chainPort),
      '--data-dir',
      data.dir,
    ],
    'Ctrl-C stops it',
  )
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    apiKey: printedApiKey(output),
    stop: async () => {
      await stop()
      data.remove()
    },
  }
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
    : Number.NaN

export function printTable(title: string, rows: Record<string, string | number>[]) {
  console.log(`\n${title}`)
  console.table(rows)
}
