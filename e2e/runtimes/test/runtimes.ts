import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'

export const examples = fileURLToPath(new URL('../../../examples/', import.meta.url))
const bin = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))

/** A merchant example running somewhere, reachable at `url`. */
export interface Running {
  url: string
  /** What it printed, for failure messages. */
  output: () => string
  stop(): Promise<void>
}

export interface Runtime {
  name: string
  /** Work done once before start (next build). */
  prepare?: () => Promise<void>
  start(env: Record<string, string>): Promise<Running>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let out = ''
  child.stdout!.on('data', (c) => {
    out += c
  })
  child.stderr!.on('data', (c) => {
    out += c
  })
  return { child, output: () => out }
}

/** Stops the process group the child leads (next start runs workers under it). */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(-child.pid!, 'SIGTERM')
  const force = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000)
  return exited.finally(() => clearTimeout(force))
}

/** Resolves once the server answers anything at all (a 404 for this path). */
async function waitForHttp(url: string, output: () => string, exited: () => boolean) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`the server exited before answering; it printed:\n${output()}`)
    try {
      await fetch(new URL('/not-a-route', url))
      return
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  throw new Error(`no answer from ${url} within 60 s; it printed:\n${output()}`)
}

/** A runtime that is a command serving the example in `dir` on PORT. */
function command(name: string, dir: string, argv: () => [string, ...string[]]): Runtime {
  return {
    name,
    async start(env) {
      const port = await freePort()
      const [cmd, ...args] = argv()
      const url = `http://127.0.0.1:${port}`
      // SHOP_ORIGIN: where the page says the relay is (never the request's Host).
      const { child, output } = run(cmd, args, `${examples}${dir}`, {
        SHOP_ORIGIN: url,
        ...env,
        PORT: String(port),
      })
      try {
        await waitForHttp(url, output, () => child.exitCode !== null)
      } catch (e) {
        await stopChild(child)
        throw e
      }
      return { url, output, stop: () => stopChild(child) }
    },
  }
}

const nextBin = () => `${examples}nextjs/node_modules/.bin/next`

export const runtimes: Runtime[] = [
  // First, so its build overlaps the others.
  {
    // next start reads PORT from the environment.
    ...command(
      'Next.js (next build && next start; webhook route on the edge runtime)',
      'nextjs',
      () => [nextBin(), 'start', '--hostname', '127.0.0.1'],
    ),
    async prepare() {
      const { child, output } = run(nextBin(), ['build'], `${examples}nextjs`, {})
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      if (code !== 0) throw new Error(`next build failed:\n${output()}`)
    },
  },
  command('Node (node:http)', 'node', () => [process.execPath, 'server.js']),
  command('Express on Node', 'express', () => [process.execPath, 'server.js']),
  command('Hono on Node', 'hono', () => [process.execPath, 'server.js']),
  command('Deno', 'deno', () => [
    bin('deno'),
    'run',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    // The relay's file store writes its records.
    '--allow-write',
    'main.ts',
  ]),
  command('Bun', 'bun', () => [bin('bun'), 'server.ts']),
  {
    name: 'Cloudflare Worker (workerd through miniflare)',
    async start(env) {
      // What `wrangler deploy` does first: one ES module for the Workers runtime.
      const bundle = await build({
        entryPoints: [`${examples}cloudflare-worker/src/worker.ts`],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        conditions: ['workerd', 'worker', 'browser'],
        logLevel: 'silent',
      })
      const port = await freePort()
      let out = ''
      // No nodejs_compat flag: the Worker gets only the web platform.
      const mf = new Miniflare({
        modules: true,
        script: bundle.outputFiles[0]!.text,
        compatibilityDate: '2026-04-26',
        bindings: { SHOP_ORIGIN: `http://127.0.0.1:${port}`, ...env },
        durableObjects: { RELAY_STORE: 'RelayStoreObject' },
        host: '127.0.0.1',
        port,
        handleRuntimeStdio(stdout, stderr) {
          stdout.on('data', (c) => {
            out += c
          })
          stderr.on('data', (c) => {
            out += c
          })
        },
      })
      const url = String(await mf.ready).replace(/\/$/, '')
      return { url, output: () => out, stop: () => mf.dispose() }
    },
  },
]
