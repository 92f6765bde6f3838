import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(
  new URL('../../packages/sandbox/bin/paysession-sandbox.js', import.meta.url),
)

/** Runs the sandbox CLI in its own process (as a merchant would), so load and server don't share a CPU thread. */
export async function startSandboxProcess(port: number, chainPort: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'paysession-bench-'))
  const child: ChildProcess = spawn(
    process.execPath,
    [
      CLI,
      'start',
      '--port',
      String(port),
      '--chain-port',
      String(chainPort),
      '--data-dir',
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      if (out.includes('Ctrl-C stops it')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)))
  })
  child.stdout!.resume()
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    apiKey: 'sk_sandbox_paysession',
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGINT')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
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
