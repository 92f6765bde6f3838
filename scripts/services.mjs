// Real Postgres and Redis servers for tests and benches: each on a free port, in its own
// temporary folder, in its own process group, stopped by stop() (and on this process's exit).
// Debian's packages, installed by scripts/ensure-services.sh.
import { execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const running = new Set()
process.on('exit', () => {
  for (const child of running) kill(child, 'SIGKILL')
})

function kill(child, signal) {
  try {
    process.kill(-child.pid, signal)
  } catch {}
}

function ensureInstalled() {
  execFileSync('sh', [fileURLToPath(new URL('./ensure-services.sh', import.meta.url))], {
    stdio: 'inherit',
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function postgresBin(name) {
  const base = '/usr/lib/postgresql'
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : []
  for (const v of versions)
    if (existsSync(join(base, v, 'bin', name))) return join(base, v, 'bin', name)
  return name
}

/** Runs as the unprivileged `postgres` user when this is root (postgres refuses root). */
function asPostgres(command, args) {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args]
}

function start(command, args, logs) {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  child.stdout.on('data', (d) => logs.push(String(d)))
  child.stderr.on('data', (d) => logs.push(String(d)))
  child.on('exit', () => running.delete(child))
  return child
}

async function stop(child, dir) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    kill(child, 'SIGTERM')
    const timer = setTimeout(() => kill(child, 'SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
  running.delete(child)
  rmSync(dir, { recursive: true, force: true })
}

async function waitFor(ready, child, logs, what) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited:\n${logs.join('')}`)
    if (await ready().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${what} did not start:\n${logs.join('')}`)
}

/** A fresh Postgres: `url` for a client, `stop()` ends it and removes its folder. */
export async function startPostgres() {
  ensureInstalled()
  const dir = mkdtempSync(join(tmpdir(), 'paysession-pg-'))
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres'])),
      Number(execFileSync('id', ['-g', 'postgres'])),
    )
  const data = join(dir, 'data')
  const logs = []
  const [initCmd, initArgs] = asPostgres(postgresBin('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
  ])
  execFileSync(initCmd, initArgs, { stdio: 'pipe' })
  const port = await freePort()
  const [cmd, args] = asPostgres(postgresBin('postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ])
  const child = start(cmd, args, logs)
  const isready = postgresBin('pg_isready')
  await waitFor(
    async () => {
      execFileSync(isready, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'], {
        stdio: 'ignore',
      })
      return true
    },
    child,
    logs,
    'postgres',
  )
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => stop(child, dir),
  }
}

/** A fresh Redis without persistence: `url` for a client, `stop()` ends it. */
export async function startRedis() {
  ensureInstalled()
  const dir = mkdtempSync(join(tmpdir(), 'paysession-redis-'))
  const port = await freePort()
  const logs = []
  const child = start(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    logs,
  )
  await waitFor(
    async () => logs.join('').includes('Ready to accept connections'),
    child,
    logs,
    'redis-server',
  )
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => stop(child, dir) }
}
