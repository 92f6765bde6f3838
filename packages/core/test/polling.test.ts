import { focusManager, onlineManager } from '@tanstack/query-core'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import {
  createPaySessionConfig,
  createRegistry,
  type PaymentSession,
  type PaySessionError,
  watchSession,
} from '../src/exports/index.js'
import { createSession, type Sandbox, startFlakyProxy, startSandbox } from './support.js'

// Only time is faked (query-core's timers); every request goes to the real sandbox through a
// real proxy that can be switched off to model an outage.
let sb: Sandbox
let proxy: Awaited<ReturnType<typeof startFlakyProxy>>
let down = false
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    chainPort: 0,
    quiet: true,
    fundingWindowSeconds: 3600,
    tokenTtlSeconds: 7200,
  })
  proxy = await startFlakyProxy(sb.apiUrl, () => down)
})
afterAll(async () => {
  vi.useRealTimers()
  await proxy?.close()
  await sb?.stop()
})

test('polling schedule: idle and active intervals, backoff on errors, stop for good at a terminal status', async () => {
  const created = await createSession(sb, '1.00')
  let started = 0
  let finished = 0
  const config = createPaySessionConfig({
    apiBase: proxy.url,
    registry: createRegistry({ localRpcUrl: sb.rpcUrl }),
    polling: {
      idleInterval: 5_000,
      interval: 1_000,
      retryDelay: 1_000,
      maxRetryDelay: 4_000,
      // The exact schedule; how jitter spreads it is polling-spread.test.ts.
      jitter: 0,
    },
    fetch: async (input, init) => {
      started++
      try {
        return await fetch(input, init)
      } finally {
        finished++
      }
    },
  })
  const seen: PaymentSession[] = []
  const errors: [string, boolean][] = []
  let active = false

  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  // Real I/O needs real turns of the event loop; setImmediate is not faked.
  const settle = async () => {
    const deadline = performance.now() + 5_000
    do {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    } while (finished < started && performance.now() < deadline)
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
  }
  const advance = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms)
    await settle()
  }

  const stop = watchSession(config, {
    sessionId: created.paymentSessionId,
    sessionToken: created.paymentSessionToken,
    isActive: () => active,
    onChange: (session) => seen.push(session),
    onError: (error: PaySessionError, final) => errors.push([error.code, final]),
  })
  await settle()
  expect(started).toBe(1) // fetched at once
  expect(seen).toHaveLength(1)

  // Idle: every 5 s.
  await advance(4_999)
  expect(started).toBe(1)
  await advance(1)
  expect(started).toBe(2)
  await advance(5_000)
  expect(started).toBe(3)

  // A payment in flight: every 1 s from the next fetch on.
  active = true
  await advance(5_000)
  expect(started).toBe(4)
  await advance(1_000)
  expect(started).toBe(5)

  // Outage: retries after 1 s, 2 s, 4 s, 4 s (capped), reported as non-final errors.
  down = true
  await advance(1_000)
  expect(started).toBe(6)
  await advance(999)
  expect(started).toBe(6)
  await advance(1)
  expect(started).toBe(7)
  await advance(1_999)
  expect(started).toBe(7)
  await advance(1)
  expect(started).toBe(8)
  await advance(4_000)
  expect(started).toBe(9)
  await advance(4_000)
  expect(started).toBe(10)
  expect(errors.length).toBeGreaterThan(0)
  expect(errors.every(([code, final]) => code === 'API_UNAVAILABLE' && final === false)).toBe(true)

  // Back online: the pending retry succeeds, then the 1 s schedule resumes.
  down = false
  await advance(4_000)
  expect(started).toBe(11)
  await advance(1_000)
  expect(started).toBe(12)

  // Terminal (the funding window ends): one last read, then never again.
  sb.clock.advance(3_601)
  await advance(1_000)
  expect(started).toBe(13)
  expect(seen.at(-1)?.status).toBe('CANCELED')
  await advance(120_000)
  focusManager.setFocused(false)
  focusManager.setFocused(true)
  onlineManager.setOnline(false)
  onlineManager.setOnline(true)
  await advance(60_000)
  expect(started).toBe(13)
  stop()
  focusManager.setFocused(undefined)
  vi.useRealTimers()
})
