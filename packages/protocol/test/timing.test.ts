import { describe, expect, test } from 'vitest'
import { type Clock, poll, sleep } from '../src/timing.js'

// The timing toolkit on a clock the test moves: no test here waits for real time.

function manualClock() {
  let now = 1_000
  let ids = 0
  const timers = new Map<number, { at: number; callback: () => void }>()
  const clock: Clock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      timers.set(++ids, { at: now + ms, callback })
      return ids
    },
    clearTimeout: (timer) => {
      timers.delete(timer as number)
    },
  }
  /** Moves time forward, firing each timer due on the way, in order, and letting its awaits run. */
  const advance = async (ms: number) => {
    const end = now + ms
    for (;;) {
      // Let the awaits run first: a loop sets its next timer only after its read resolves.
      for (let i = 0; i < 20; i++) await Promise.resolve()
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      now = due[1].at
      timers.delete(due[0])
      due[1].callback()
    }
    now = end
  }
  return { clock, advance, pending: () => timers.size }
}

describe('sleep', () => {
  test('resolves when the clock reaches the time, not before', async () => {
    const { clock, advance } = manualClock()
    let done = false
    void sleep(clock, 500).then(() => {
      done = true
    })
    await advance(499)
    expect(done).toBe(false)
    await advance(1)
    expect(done).toBe(true)
  })

  test('an abort resolves at once and clears the timer', async () => {
    const { clock, pending } = manualClock()
    const controller = new AbortController()
    const slept = sleep(clock, 60_000, controller.signal)
    expect(pending()).toBe(1)
    controller.abort()
    await slept
    expect(pending()).toBe(0)
  })
})

describe('poll', () => {
  test('reads every interval until the value holds', async () => {
    const { clock, advance } = manualClock()
    const reads: number[] = []
    const result = poll({
      read: async () => {
        reads.push(clock.now())
        return reads.length
      },
      until: (n) => n === 3,
      interval: 1_000,
      clock,
    })
    await advance(5_000)
    expect(await result).toBe(3)
    expect(reads).toEqual([1_000, 2_000, 3_000])
  })

  test('a failed read waits the backoff, without it the error ends the poll', async () => {
    const { clock, advance } = manualClock()
    const reads: number[] = []
    const read = async () => {
      reads.push(clock.now())
      if (reads.length < 3) throw new Error('down')
      return 'up'
    }
    const backoff = { retryDelay: 100, maxRetryDelay: 1_000, jitter: 0 }
    const result = poll({ read, until: () => true, interval: 5_000, backoff, clock })
    await advance(1_000)
    expect(await result).toBe('up')
    expect(reads).toEqual([1_000, 1_100, 1_300])
    await expect(
      poll({
        read: async () => Promise.reject(new Error('down')),
        until: () => true,
        interval: 1,
        clock,
      }),
    ).rejects.toThrow('down')
  })

  test('the read at the deadline is the last, then undefined', async () => {
    const { clock, advance } = manualClock()
    const reads: number[] = []
    const result = poll({
      read: async () => reads.push(clock.now()),
      until: () => false,
      interval: 400,
      deadline: 2_000,
      clock,
    })
    await advance(5_000)
    expect(await result).toBeUndefined()
    expect(reads).toEqual([1_000, 1_400, 1_800, 2_000])
  })
})
