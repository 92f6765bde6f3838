// Relay instances as processes for the relay bench: each runs packages/server/test/relayProcess.ts
// (the relay over HTTP, a Postgres store) on a fixed port, so a killed one restarts where the
// round-robin proxy in front of them still sends its share.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { RelayProcessConfig } from '../../packages/server/test/relayProcess.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

export type Instance = { port: number; child: ChildProcess }

/** Starts one relay process on `port` (0: a free one); resolves once it listens. */
export function startInstance(config: RelayProcessConfig, port = 0): Promise<Instance> {
  const child = spawn(
    `${root}node_modules/.bin/tsx`,
    [`${root}packages/server/test/relayProcess.ts`],
    {
      cwd: root,
      detached: true,
      env: { ...process.env, RELAY_CONFIG: JSON.stringify(config), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const listening = /listening (\d+)/.exec(output)?.[1]
      if (listening) resolve({ port: Number(listening), child })
    })
    child.stderr!.on('data', (chunk) => {
      output += chunk
    })
    child.once('exit', (code) => reject(new Error(`relay process exited ${code}: ${output}`)))
  })
}

/** Ends an instance's process group: SIGKILL for a crash, SIGTERM to stop. */
export function killInstance({ child }: Instance, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    process.kill(-child.pid!, signal)
  } catch {}
  return exited
}

/** A round-robin HTTP proxy over the ports; a backend that refuses the connection is a 502. */
export async function roundRobinProxy(ports: () => number[]) {
  let next = 0
  const server = createServer((req, res) => {
    const list = ports()
    const port = list[next++ % list.length]!
    const forwarded = httpRequest(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
      res.end('{"error":{"code":"BAD_GATEWAY","message":"the relay instance did not answer"}}')
    })
    req.pipe(forwarded)
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
