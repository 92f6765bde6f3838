import { QueryObserver, timeoutManager } from '@tanstack/query-core'
import { afterEach, expect, test } from 'vitest'
import { type Clock, createPaySessionConfig, systemClock } from '../src/exports/index.js'

// query-core's timers run on the config's clock: a test moves the session's polling by moving
// its clock, never by waiting.

function manualClock() {
  let now = 0
  let ids = 0
  const timers = new Map<number, { at: number; callback: () => void }>()
  const clock: Clock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      timers.set(++ids, { at: now + ms, callback })
      return ids
    },
    clearTimeout: (timer) => void timers.delete(timer as number),
  }
  const advance = async (ms: number) => {
    const end = now + ms
    for (;;) {
      for (let i = 0; i < 20; i++) await Promise.resolve()
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      now = due[1].at
      timers.delete(due[0])
      due[1].callback()
    }
    now = end
  }
  return { clock, advance }
}

const configOn = (clock: Clock) =>
  createPaySessionConfig({ apiBase: 'http://127.0.0.1:9', polling: { clock } })

afterEach(() => void configOn(systemClock))

test("a query's refetch interval runs on the config's clock", async () => {
  const { clock, advance } = manualClock()
  const config = configOn(clock)
  let reads = 0
  const observer = new QueryObserver(config.queryClient, {
    queryKey: ['reads'],
    queryFn: async () => ++reads,
    refetchInterval: 1_000,
  })
  const stop = observer.subscribe(() => {})
  await advance(0)
  expect(reads).toBe(1)
  await advance(999)
  expect(reads).toBe(1)
  await advance(1)
  expect(reads).toBe(2)
  await advance(3_000)
  expect(reads).toBe(5)
  stop()
  await advance(10_000)
  expect(reads).toBe(5)
})

test('a config on the system clock gives query-core real time back', async () => {
  const { clock, advance } = manualClock()
  configOn(clock)
  let fired = 0
  timeoutManager.setTimeout(() => fired++, 10)
  await advance(10)
  expect(fired).toBe(1)
  configOn(systemClock)
  const timer = timeoutManager.setTimeout(() => fired++, 10)
  await advance(10)
  expect(fired).toBe(1)
  timeoutManager.clearTimeout(timer)
})
