import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { type Clock, sleep, systemClock } from '@paysession/protocol'
import type { Hex } from 'viem'
import { entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import { freePort } from './freePort.js'

// The package's CLI entry (its exports map offers no path to it).
const altoCli = fileURLToPath(
  new URL('../node_modules/@pimlico/alto/esm/cli/alto.js', import.meta.url),
)

/** Keys of the bundler's own accounts (funded by the stacks): the executor sends handleOps. */
export const BUNDLER_EXECUTOR_KEY: Hex =
  '0xb0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0'
export const BUNDLER_UTILITY_KEY: Hex =
  '0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1'

export type Bundler = { url: string; stop(): Promise<void> }

/**
 * Pimlico's Alto bundler (the `alto` CLI of @pimlico/alto) on a free port, pointed at the chain.
 * Safe mode (the ERC-7562 tracer rules) needs debug_traceCall with JS tracers, which anvil lacks.
 */
export async function startBundler(options: {
  rpcUrl: string
  log?: (line: string) => void
  /** Times the wait for the bundler to answer and its stop. Default: `systemClock`. */
  clock?: Clock
}): Promise<Bundler> {
  const clock = options.clock ?? systemClock
  const port = await freePort()
  const args = [
    altoCli,
    '--entrypoints',
    `${entryPoint07Address},${entryPoint08Address}`,
    '--executor-private-keys',
    BUNDLER_EXECUTOR_KEY,
    '--utility-private-key',
    BUNDLER_UTILITY_KEY,
    '--rpc-url',
    options.rpcUrl,
    '--port',
    String(port),
    '--safe-mode',
    'false',
    '--enable-cors',
    'true',
    // debug_bundler_setBundlingMode / sendBundleNow: tests put several user operations in one
    // bundle transaction.
    '--enable-debug-endpoints',
    'true',
    '--block-time',
    '100',
    '--min-bundle-interval',
    '50',
    '--max-bundle-interval',
    '200',
    '--utility-wallet-monitor',
    'false',
    '--refilling-wallets',
    'false',
    '--log-level',
    'warn',
  ]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000)
    for (const line of chunk.toString().split('\n')) if (line.trim()) options.log?.(line)
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  const url = `http://127.0.0.1:${port}`
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      const timer = clock.setTimeout(() => child.kill('SIGKILL'), 5000)
      child.once('exit', () => {
        clock.clearTimeout(timer)
        resolve()
      })
      child.kill('SIGTERM')
    })
  // Never outlives the process that started it.
  process.once('exit', () => child.kill('SIGKILL'))
  const deadline = clock.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alto exited (${child.exitCode}):\n${output}`)
    const ready = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_supportedEntryPoints',
        params: [],
      }),
    }).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return { url, stop }
    if (clock.now() > deadline) {
      await stop()
      throw new Error(`alto did not answer on ${url} within 60 s:\n${output}`)
    }
    await sleep(clock, 200)
  }
}
