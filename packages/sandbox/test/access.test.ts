// Who may call the sandbox over real HTTP: a page of another site may not (CORS), nor a page that
// reaches it under a rebound DNS name (Host); the API key is the data folder's own.

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Sandbox, startSandbox } from '../src/index.js'
import { runCli, type SandboxProcess, spawnSandbox } from './child.js'
import { start } from './helpers.js'

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: any }

/** One request with exactly these headers (fetch would not send a Host of our choosing). */
function send(
  apiUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${apiUrl}${path}`, { method, headers }, async (res) => {
      let text = ''
      for await (const chunk of res) text += chunk
      resolve({
        status: res.statusCode!,
        headers: res.headers,
        body: text ? JSON.parse(text) : undefined,
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

let sb: Sandbox
beforeAll(async () => {
  sb = await start()
})
afterAll(() => sb?.stop())

const withKey = () => ({ authorization: `Bearer ${sb.apiKey}` })
const preflight = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type',
})

describe('CORS', () => {
  test("a foreign page's preflight is refused, with no CORS headers", async () => {
    const res = await send(
      sb.apiUrl,
      'OPTIONS',
      '/payment-sessions',
      preflight('https://evil.example'),
    )
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('ORIGIN_NOT_ALLOWED')
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    expect(res.headers['access-control-allow-headers']).toBeUndefined()
  })

  test('a foreign page learns nothing, even with the API key', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const res = await send(sb.apiUrl, 'GET', '/sandbox/info', { ...withKey(), origin })
      expect(res.status, origin).toBe(403)
      expect(res.body.error.code).toBe('ORIGIN_NOT_ALLOWED')
      expect(res.body.error.message).toContain('allowedOrigins')
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
      expect(JSON.stringify(res.body)).not.toContain('rpcUrl')
    }
  })

  test("a developer's own loopback page, on any port, may call it", async () => {
    for (const origin of [
      'http://localhost:5173',
      'https://localhost',
      'http://127.0.0.1:3000',
      'http://127.1.2.3:8080',
      'http://[::1]:4321',
    ]) {
      const pre = await send(sb.apiUrl, 'OPTIONS', '/payment-sessions', preflight(origin))
      expect(pre.status, origin).toBe(204)
      expect(pre.headers['access-control-allow-origin']).toBe(origin)
      expect(pre.headers['access-control-allow-headers']).toContain('authorization')
      const res = await send(sb.apiUrl, 'GET', '/sandbox/info', { ...withKey(), origin })
      expect(res.status, origin).toBe(200)
      expect(res.headers['access-control-allow-origin']).toBe(origin)
      expect(res.headers.vary).toContain('origin')
    }
  })

  test('nothing answers with a wildcard', async () => {
    const res = await send(sb.apiUrl, 'GET', '/health', {})
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('Host', () => {
  test('a rebound DNS name is refused before anything is read', async () => {
    const port = new URL(sb.apiUrl).port
    for (const host of [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`]) {
      const res = await send(sb.apiUrl, 'GET', '/sandbox/info', {
        ...withKey(),
        host,
        origin: `http://${host}`,
      })
      expect(res.status, host).toBe(421)
      expect(res.body.error.code).toBe('HOST_NOT_ALLOWED')
      expect(res.body.error.message).toContain('allowedHosts')
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
    }
  })

  test('loopback names answer', async () => {
    const port = new URL(sb.apiUrl).port
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      const res = await send(sb.apiUrl, 'GET', '/sandbox/info', { ...withKey(), host })
      expect(res.status, host).toBe(200)
    }
  })
})

describe('the chain port: the same rules, for JSON-RPC', () => {
  const richer = '0x00000000000000000000000000000000000000e1'
  const call = (method: string, params: unknown[], headers: Record<string, string>) =>
    send(
      sb.rpcUrl,
      'POST',
      '',
      { 'content-type': 'application/json', ...headers },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    )
  const balance = async () =>
    BigInt((await call('eth_getBalance', [richer, 'latest'], {})).body.result)

  test('a foreign page gets no CORS grant, and its anvil_setBalance does not run', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const pre = await send(sb.rpcUrl, 'OPTIONS', '', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      })
      expect(pre.status, origin).toBe(403)
      expect(pre.headers['access-control-allow-origin']).toBeUndefined()
      const res = await call('anvil_setBalance', [richer, '0x1bc16d674ec80000'], { origin })
      expect(res.status, origin).toBe(403)
      expect(res.body.error.code).toBe('ORIGIN_NOT_ALLOWED')
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
    }
    expect(await balance()).toBe(0n)
  })

  test('a rebound DNS name gets no answer', async () => {
    const port = new URL(sb.rpcUrl).port
    for (const host of [`evil.example:${port}`, 'evil.example']) {
      for (const origin of [undefined, `http://${host}`]) {
        const res = await call('anvil_setBalance', [richer, '0x1bc16d674ec80000'], {
          host,
          ...(origin ? { origin } : {}),
        })
        expect(res.status, host).toBe(421)
        expect(res.body.error.code).toBe('HOST_NOT_ALLOWED')
        expect(res.body.result).toBeUndefined()
      }
    }
    expect(await balance()).toBe(0n)
  })

  test("a developer's loopback page may call it, preflight included", async () => {
    const origin = 'http://localhost:5173'
    const pre = await send(sb.rpcUrl, 'OPTIONS', '', {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    })
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe(origin)
    expect(pre.headers['access-control-allow-headers']).toContain('content-type')
    const res = await call('eth_chainId', [], { origin, host: new URL(sb.rpcUrl).host })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe(origin)
    expect(res.body.result).toBe('0x7a69')
    // The URL handed out is this port, not anvil's own.
    const info = await send(sb.apiUrl, 'GET', '/sandbox/info', withKey())
    expect(info.body.rpcUrl).toBe(sb.rpcUrl)
  })
})

/** The anvil this process started, and the TCP ports it listens on, as its own network sees them. */
function anvilListening(): { pid: number; ports: number[] } {
  const pid = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .find((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8')
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return (
          parent === process.pid &&
          /(^|\/)anvil$/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0')[0]!)
        )
      } catch {
        return false
      }
    })
  if (!pid) throw new Error('no anvil started by this process')
  // Its own sockets: /proc/<pid>/net/tcp lists every socket of its network namespace.
  const own = new Set(
    readdirSync(`/proc/${pid}/fd`)
      .map((fd) => {
        try {
          return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
        } catch {
          return undefined
        }
      })
      .filter(Boolean),
  )
  const ports = readFileSync(`/proc/${pid}/net/tcp`, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A' && own.has(fields[9])) // LISTEN
    .map((fields) => Number.parseInt(fields[1]!.split(':')[1]!, 16))
  return { pid, ports }
}

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

// Whether this machine lets the sandbox give anvil a network namespace of its own (chain/anvil.ts).
const isolates =
  process.platform === 'linux' &&
  process.env.PAYSESSION_ANVIL_NETNS !== '0' &&
  spawnSync('unshare', ['--net', '--map-root-user', 'true'], { stdio: 'ignore' }).status === 0

// anvil has no Host check of its own: its HTTP port is in a network namespace of its own, so no
// page of this machine (a rebound DNS name, a port scan) can reach it; the chain port is the way.
// Where the system refuses the namespace, the port is reachable but grants no page CORS.
test.runIf(process.platform === 'linux')(
  "anvil's own HTTP port answers nothing on this machine (else grants no CORS); the chain port does",
  async () => {
    const { ports } = anvilListening()
    expect(ports.length).toBeGreaterThan(0)
    for (const port of ports) {
      if (isolates) expect(await reachable(port), `anvil's port ${port}`).toBe(false)
      else {
        const answer = await send(
          `http://127.0.0.1:${port}`,
          'POST',
          '',
          { 'content-type': 'application/json', origin: 'https://evil.example' },
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        )
        expect(answer.headers['access-control-allow-origin']).toBeUndefined()
      }
    }
    const res = await send(
      sb.rpcUrl,
      'POST',
      '',
      { 'content-type': 'application/json' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    )
    expect(res.body.result).toBe('0x7a69')
  },
)

test('a mistyped origin or host stops the start with what to write', async () => {
  await expect(startSandbox({ allowedOrigins: ['shop.test'] })).rejects.toThrow(
    /"shop.test" is not an origin.*https:\/\/shop.dev.example:8443/,
  )
  await expect(startSandbox({ allowedHosts: ['https://sandbox.internal/'] })).rejects.toThrow(
    /is not a host name/,
  )
})

describe('the CLI: configured origins and hosts, the data folder’s own key', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paysession-access-'))
  let child: SandboxProcess | undefined
  const stop = async () => {
    child?.child.kill('SIGINT')
    await child?.exited
  }
  afterAll(async () => {
    await stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('a random key, printed, kept and read back; configured names answer', async () => {
    child = await spawnSandbox(dataDir, {
      PAYSESSION_ALLOWED_ORIGINS: 'https://shop.test, http://shop.test:8080',
      PAYSESSION_ALLOWED_HOSTS: 'sandbox.internal',
      PAYSESSION_API_KEY: '',
    })
    const key = child.apiKey
    expect(key).toMatch(/^sk_sandbox_[0-9a-f]{48}$/)
    expect((await runCli(dataDir, ['api-key'])).trim()).toBe(key)
    const info = (headers: Record<string, string>) =>
      send(child!.apiUrl, 'GET', '/sandbox/info', headers)
    expect((await info({ authorization: 'Bearer sk_sandbox_paysession' })).status).toBe(401)
    const auth = { authorization: `Bearer ${key}` }
    const fromShop = await info({ ...auth, origin: 'https://shop.test' })
    expect(fromShop.status).toBe(200)
    expect(fromShop.headers['access-control-allow-origin']).toBe('https://shop.test')
    const pre = await send(child.apiUrl, 'OPTIONS', '/payment-sessions', {
      ...preflight('http://shop.test:8080'),
      'access-control-request-private-network': 'true',
    })
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-private-network']).toBe('true')
    expect((await info({ ...auth, origin: 'http://shop.test' })).status).toBe(403)
    const port = new URL(child.apiUrl).port
    expect((await info({ ...auth, host: `sandbox.internal:${port}` })).status).toBe(200)
    expect((await info({ ...auth, host: `other.internal:${port}` })).status).toBe(421)

    await stop()
    child = await spawnSandbox(dataDir, { PAYSESSION_API_KEY: '' })
    expect(child.apiKey).toBe(key)
    expect((await info({ ...auth, origin: 'https://shop.test' })).status).toBe(403)
  }, 120_000) // two starts of a process with its own anvil, and a CLI run
})
