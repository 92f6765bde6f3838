import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PortInUseError } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startDemo } from '../src/startDemo.ts'

// `npm run demo` with a port another program holds: one clear sentence naming the port and the
// variable to set, not anvil's raw "Address already in use (os error 98)".
let other: Server
let taken: number
beforeAll(async () => {
  other = createServer()
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  taken = (other.address() as { port: number }).port
})
afterAll(() => new Promise((resolve) => other.close(resolve)))

describe('a port in use by another program', () => {
  test('the shop’s own port: PORT_IN_USE naming PAYSESSION_DEMO_PORT', async () => {
    const sandbox = { port: 0, chainPort: 0, quiet: true }
    const error = await startDemo({ port: taken, sandbox }).catch((e) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect(error).toMatchObject({ code: 'PORT_IN_USE', port: taken })
    expect(error.message).toContain('PAYSESSION_DEMO_PORT')
  })

  test('npm run demo prints the sentence for the chain port and exits 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-port-'))
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: {
          ...process.env,
          PAYSESSION_CHAIN_PORT: String(taken),
          PAYSESSION_PORT: '0',
          PAYSESSION_DEMO_PORT: '0',
          PAYSESSION_DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const code = await new Promise((resolve) => child.once('exit', resolve))
      expect(code).toBe(1)
      expect(stderr.trim()).toBe(
        `The demo could not start: Port ${taken} is in use by another program, so the local chain (anvil) cannot listen on it. Stop that program, or set PAYSESSION_CHAIN_PORT (chainPort) to a free port.`,
      )
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
