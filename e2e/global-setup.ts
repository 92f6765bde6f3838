import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** The first free port on 127.0.0.1 from `preferred` on (unusual ones, away from the defaults). */
async function freePort(preferred: number, taken: number[]): Promise<number> {
  for (let port = preferred; port < preferred + 200; port++) {
    if (taken.includes(port)) continue
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error(`no free port from ${preferred}`)
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

/**
 * Starts the demo merchant (`node --import tsx apps/demo/src/main.ts`: the sandbox service, anvil
 * and the merchant server, in one process) on free unusual ports with a fresh data folder, and
 * passes its URLs to the test workers through the environment. The teardown stops it with
 * SIGTERM (the demo stops anvil itself) and deletes the data folder.
 */
export default async function globalSetup() {
  const taken: number[] = []
  const demoPort = await freePort(3390, taken)
  taken.push(demoPort)
  const apiPort = await freePort(4390, taken)
  taken.push(apiPort)
  const chainPort = await freePort(8790, taken)
  const dataDir = mkdtempSync(join(tmpdir(), 'paysession-e2e-'))

  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(repoRoot, 'apps', 'demo'),
    env: {
      ...process.env,
      PAYSESSION_DEMO_PORT: String(demoPort),
      PAYSESSION_PORT: String(apiPort),
      PAYSESSION_CHAIN_PORT: String(chainPort),
      PAYSESSION_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: anvil (its child) can be found again if the demo dies badly.
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (chunk) => {
    output += chunk
  })
  child.stderr!.on('data', (chunk) => {
    output += chunk
  })

  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      if (!(await waitForExit(child, 15_000))) {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {}
        await waitForExit(child, 5_000)
      }
    }
    rmSync(dataDir, { recursive: true, force: true })
  }

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the demo did not start in 150 s:\n${output}`)),
        150_000,
      )
      const check = () => {
        if (output.includes('Open the shop')) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout!.on('data', check)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`the demo exited (${code}) before it started:\n${output}`))
      })
    })
  } catch (error) {
    await stop()
    throw error
  }

  process.env.E2E_DEMO_URL = `http://127.0.0.1:${demoPort}`
  process.env.E2E_API_URL = `http://127.0.0.1:${apiPort}`
  process.env.E2E_API_PORT = String(apiPort)
  process.env.E2E_RPC_URL = `http://127.0.0.1:${chainPort}`
  process.env.E2E_DATA_DIR = dataDir
  // The sandbox's key is its data folder's own, printed in the banner.
  const key = /Sandbox API\s+\S+\s+key (\S+)/.exec(output)?.[1]
  if (!key) {
    await stop()
    throw new Error(`the demo printed no sandbox API key:\n${output}`)
  }
  process.env.E2E_API_KEY = key
  return stop
}
