import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export interface Anvil {
  rpcUrl: string
  port: number
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

/** Starts anvil on 127.0.0.1; with a statePath the chain is loaded from and saved to it. */
export async function startAnvil(options: {
  port: number
  statePath?: string | undefined
  blockTime?: number | undefined
}): Promise<Anvil> {
  const args = ['--host', '127.0.0.1', '--port', String(options.port), '--chain-id', '31337']
  if (options.statePath) args.push('--state', options.statePath, '--state-interval', '2')
  if (options.blockTime) args.push('--block-time', String(options.blockTime))
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (m) resolve(Number(m[1]))
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`anvil exited (${code}): ${output.slice(-2000)}`)),
    )
    child.once('error', reject)
  })
  child.stdout.removeAllListeners('data')
  child.stderr.removeAllListeners('data')
  child.stdout.resume()
  child.stderr.resume()
  return { rpcUrl: `http://127.0.0.1:${port}`, port, stop: () => stopChild(child) }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    // SIGINT lets anvil write its state file before it exits.
    child.kill('SIGINT')
  })
}
