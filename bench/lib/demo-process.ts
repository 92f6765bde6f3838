import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const MAIN = fileURLToPath(new URL('../../apps/demo/src/main.ts', import.meta.url))

/** Runs `apps/demo` (demo server + sandbox + anvil) in its own process on the given ports. */
export async function startDemoProcess(ports: { demo: number; api: number; chain: number }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'paysession-bench-demo-'))
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      PAYSESSION_DEMO_PORT: String(ports.demo),
      PAYSESSION_PORT: String(ports.api),
      PAYSESSION_CHAIN_PORT: String(ports.chain),
      PAYSESSION_DATA_DIR: dataDir,
    },
  })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      if (out.includes('is running')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`demo exited ${code}: ${out}`)))
  })
  child.stdout!.resume()
  return {
    url: `http://127.0.0.1:${ports.demo}`,
    apiUrl: `http://127.0.0.1:${ports.api}`,
    rpcUrl: `http://127.0.0.1:${ports.chain}`,
    apiKey: 'sk_sandbox_paysession',
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGINT')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}
