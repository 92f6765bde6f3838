import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createPaySessionConfig, createRegistry, watchSession } from '../src/exports/index.js'
import { createSession, type Sandbox, startFlakyProxy, startSandbox } from './support.js'

// A thousand checkouts opened together, or coming back after an outage, must not poll the
// service in one burst. Only time is faked; every request goes to the real sandbox through a real
// proxy that can be switched off to model an outage.
let sb: Sandbox
let proxy: Awaited<ReturnType<typeof startFlakyProxy>>
let down = false
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, tokenTtlSeconds: 7200 })
  proxy = await startFlakyProxy(sb.apiUrl, () => down)
})
afterAll(async () => {
  vi.useRealTimers()
  await proxy?.close()
  await sb?.stop()
})

test('checkouts opened together spread their polls, and their retries after an outage', async () => {
  const CHECKOUTS = 24
  const sessions = await Promise.all(
    Array.from({ length: CHECKOUTS }, () => createSession(sb, '1.00')),
  )
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  })
  let started = 0
  let finished = 0
  // The (fake) time of every request each checkout made.
  const times = sessions.map(() => [] as number[])
  const stops = sessions.map((session, i) =>
    watchSession(
      createPaySessionConfig({
        apiBase: proxy.url,
        registry: createRegistry({ localRpcUrl: sb.rpcUrl }),
        polling: { idleInterval: 8_000, retryDelay: 1_000, maxRetryDelay: 8_000 },
        fetch: async (input, init) => {
          started++
          times[i]!.push(Date.now())
          try {
            return await fetch(input, init)
          } finally {
            finished++
          }
        },
      }),
      {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
        onChange: () => {},
      },
    ),
  )
  const settle = async () => {
    const deadline = performance.now() + 5_000
    do {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    } while (finished < started && performance.now() < deadline)
  }
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      await vi.advanceTimersByTimeAsync(50)
      await settle()
    }
  }
  try {
    await settle()
    const t0 = Date.now()
    expect(times.every((list) => list.length === 1)).toBe(true) // each reads at once

    // The next poll: 8 s on average, drawn between 4 and 12 s, never all at one instant.
    await advance(12_100)
    const second = times.map((list) => list[1]! - t0)
    expect(second.every((ms) => ms >= 4_000 && ms <= 12_100)).toBe(true)
    expect(new Set(second.map((ms) => Math.floor(ms / 500))).size).toBeGreaterThanOrEqual(6)
    expect(Math.max(...second) - Math.min(...second)).toBeGreaterThanOrEqual(3_000)

    // An outage: each checkout's retries wait a random part of the backoff, so they differ
    // between checkouts and do not line up again.
    down = true
    const outage = Date.now()
    const before = times.map((list) => list.length)
    await advance(40_000)
    const waits = times.map((list, i) => {
      const during = list.slice(before[i]!)
      return during.slice(1).map((at, k) => at - during[k]!)
    })
    const firstRetries = waits.map((list) => list[0]).filter((ms) => ms !== undefined)
    expect(firstRetries.length).toBeGreaterThanOrEqual(CHECKOUTS / 2)
    expect(firstRetries.every((ms) => ms! <= 1_050)).toBe(true) // full jitter up to 1 s
    expect(new Set(firstRetries.map((ms) => Math.floor(ms! / 100))).size).toBeGreaterThanOrEqual(4)
    expect(waits.flat().every((ms) => ms <= 8_050)).toBe(true) // capped
    expect(new Set(waits.flat()).size).toBeGreaterThan(CHECKOUTS)

    // Back: the first successful reads after the outage are spread over seconds, not one instant.
    down = false
    const back = Date.now()
    const during = times.map((list) => list.length)
    await advance(9_000)
    const recovered = times
      .map((list, i) => list.slice(during[i]!)[0])
      .filter((at) => at !== undefined)
      .map((at) => at! - back)
    expect(recovered.length).toBe(CHECKOUTS)
    expect(Math.max(...recovered) - Math.min(...recovered)).toBeGreaterThanOrEqual(2_000)
    expect(outage).toBeLessThan(back)
  } finally {
    for (const stop of stops) stop()
    vi.useRealTimers()
  }
}, 120_000)
