import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PortInUseError, startSandbox } from '../src/index.js'

// Another program on the sandbox's port: a typed error whose sentence names the port and the
// setting to change, never anvil's raw "Address already in use (os error 98)".
let other: Server
let taken: number
beforeAll(async () => {
  other = createServer()
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  taken = (other.address() as { port: number }).port
})
afterAll(() => new Promise((resolve) => other.close(resolve)))

describe('a port in use by another program', () => {
  test('the chain port: PORT_IN_USE, naming PAYSESSION_CHAIN_PORT', async () => {
    const error = await startSandbox({ port: 0, chainPort: taken, quiet: true }).catch((e) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect(error).toMatchObject({ code: 'PORT_IN_USE', port: taken })
    expect(error.message).toBe(
      `Port ${taken} is in use by another program, so the local chain (anvil) cannot listen on it. Stop that program, or set PAYSESSION_CHAIN_PORT (chainPort) to a free port.`,
    )
    expect(String(error.cause)).toMatch(/address already in use/i)
  })

  test('the API port: PORT_IN_USE, naming PAYSESSION_PORT; the chain it started is stopped', async () => {
    const error = await startSandbox({ port: taken, chainPort: 0, quiet: true }).catch((e) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect(error).toMatchObject({ code: 'PORT_IN_USE', port: taken })
    expect(error.message).toContain(`Port ${taken} is in use by another program`)
    expect(error.message).toContain('PAYSESSION_PORT')
    // Nothing was left running: the same options start once the port is free.
    await new Promise((resolve) => other.close(resolve))
    const sb = await startSandbox({ port: taken, chainPort: 0, quiet: true })
    expect(sb.apiUrl).toBe(`http://127.0.0.1:${taken}`)
    await sb.stop()
    other = createServer()
    await new Promise<void>((resolve) => other.listen(taken, '127.0.0.1', resolve))
  })
})
