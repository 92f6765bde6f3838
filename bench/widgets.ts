// Load benchmark: many concurrent checkouts, each the real @paysession/core watchSession
// (query-core polling with its own session token), against one sandbox in its own process.
// Prints the requests/s the sandbox held and the latency each poller saw: of the polls (every
// request after a checkout's first) and, apart, of the opening reads all checkouts make at once.
import { createPaySessionConfig, watchSession } from '@paysession/core'
import { environmentManager, QueryClient } from '@tanstack/query-core'
import { freePorts, smoke } from './lib/ports.ts'
import { percentile, printTable, startSandboxProcess } from './lib/sandbox-process.ts'

// Node has no window: let query-core schedule refetch timers as a browser would.
environmentManager.setIsServer(() => false)

const LEVELS = (process.env.BENCH_WIDGETS ?? (smoke ? '5' : '100,500,1000')).split(',').map(Number)
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 1000)
// The smoke pass, long enough for each poller's second read after its opening one (jitter too).
const SECONDS = Number(process.env.BENCH_SECONDS ?? (smoke ? (2.5 * INTERVAL) / 1000 : 8))
// BENCH_JITTER=0 polls on the exact schedule (as before polls were spread), for comparison.
const JITTER =
  process.env.BENCH_JITTER === undefined ? {} : { jitter: Number(process.env.BENCH_JITTER) }

const [apiPort, chainPort] = await freePorts(2)
const sb = await startSandboxProcess(apiPort!, chainPort!)
try {
  const rows = []
  for (const widgets of LEVELS) {
    // Setup, not measured: sessions created 50 at a time (a burst of 1,000 POSTs gets resets).
    const sessions: { paymentSessionId: string; paymentSessionToken: string }[] = []
    for (let start = 0; start < widgets; start += 50) {
      const batch = Array.from({ length: Math.min(50, widgets - start) }, async (_, k) => {
        const res = await fetch(`${sb.apiUrl}/payment-sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ amount: `${1 + ((start + k) % 50)}.00`, currency: 'USD' }),
        })
        return (await res.json()) as { paymentSessionId: string; paymentSessionToken: string }
      })
      sessions.push(...(await Promise.all(batch)))
    }
    // Latency of each request per poller; the first is the opening read, which every checkout
    // opened at the same instant makes at once (no schedule can spread a page's first read).
    const perPoller = sessions.map(() => [] as number[])
    let errors = 0
    const stops = sessions.map((s, i) => {
      // One config per checkout, as one per page: each has its own query client.
      const config = createPaySessionConfig({
        apiBase: sb.apiUrl,
        polling: { interval: INTERVAL, idleInterval: INTERVAL, ...JITTER },
        // Collected as soon as unwatched: query-core's 5-minute timer would keep Node running,
        // even for a query that an answer arriving after clear() below filled again.
        queryClient: new QueryClient({ defaultOptions: { queries: { gcTime: 0 } } }),
        fetch: async (input, init) => {
          const t0 = performance.now()
          try {
            return await fetch(input, init)
          } finally {
            perPoller[i]!.push(performance.now() - t0)
          }
        },
      })
      const unwatch = watchSession(config, {
        sessionId: s.paymentSessionId,
        sessionToken: s.paymentSessionToken,
        isActive: () => true,
        onChange: () => {},
        onError: () => {
          errors++
        },
      })
      return () => {
        unwatch()
        // Its queries' garbage-collection timers would keep Node running for minutes.
        config.queryClient.clear()
      }
    })
    const t0 = performance.now()
    await new Promise((r) => setTimeout(r, SECONDS * 1000))
    for (const stop of stops) stop()
    const elapsed = (performance.now() - t0) / 1000
    const opening = perPoller.map((l) => l[0]!).sort((a, b) => a - b)
    const polls = perPoller.map((l) => l.slice(1))
    const all = polls.flat().sort((a, b) => a - b)
    const pollerP99 = polls
      .filter((l) => l.length > 0)
      .map((l) =>
        percentile(
          [...l].sort((a, b) => a - b),
          99,
        ),
      )
      .sort((a, b) => a - b)
    if (!pollerP99.length)
      throw new Error(`no poller read the session again after its opening read in ${SECONDS} s`)
    rows.push({
      widgets,
      'poll every ms': INTERVAL,
      requests: all.length + opening.length,
      'req/s': Math.round((all.length + opening.length) / elapsed),
      'ideal req/s': Math.round((widgets * 1000) / INTERVAL),
      'p50 ms': percentile(all, 50).toFixed(1),
      'p99 ms': percentile(all, 99).toFixed(1),
      'worst poller p99 ms': pollerP99[pollerP99.length - 1]!.toFixed(1),
      'opening read p50 ms': percentile(opening, 50).toFixed(1),
      'opening read p99 ms': percentile(opening, 99).toFixed(1),
      errors,
    })
  }
  printTable(
    `Concurrent checkouts (core watchSession in Node) polling one sandbox, ${SECONDS}s each`,
    rows,
  )
} finally {
  await sb.stop()
}
