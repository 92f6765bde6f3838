// Load benchmark: many open sessions, concurrent pollers doing GET /payment-sessions/{id}
// with their session tokens against a sandbox in its own process. Prints requests/s and
// p50/p99 latency per concurrency level. Traffic stays on 127.0.0.1, bounded in time.
import { freePorts, smoke } from './lib/ports.ts'
import { percentile, printTable, startSandboxProcess } from './lib/sandbox-process.ts'

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? (smoke ? 5 : 500))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (smoke ? 0.5 : 5))
const LEVELS = (process.env.BENCH_CONCURRENCY ?? (smoke ? '1,2' : '1,10,50,100'))
  .split(',')
  .map(Number)

const [apiPort, chainPort] = await freePorts(2)
const sb = await startSandboxProcess(apiPort!, chainPort!)
try {
  const sessions: { id: string; token: string }[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const res = await fetch(`${sb.apiUrl}/payment-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: `${1 + (i % 100)}.00`, currency: i % 3 ? 'USD' : 'EUR' }),
    })
    const json = (await res.json()) as { paymentSessionId: string; paymentSessionToken: string }
    sessions.push({ id: json.paymentSessionId, token: json.paymentSessionToken })
  }

  const rows = []
  for (const concurrency of LEVELS) {
    const latencies: number[] = []
    let errors = 0
    const end = performance.now() + SECONDS * 1000
    const poller = async (n: number) => {
      let i = n
      while (performance.now() < end) {
        const s = sessions[i++ % sessions.length]!
        const t0 = performance.now()
        try {
          const res = await fetch(`${sb.apiUrl}/payment-sessions/${s.id}`, {
            headers: { authorization: `Bearer ${s.token}` },
          })
          await res.arrayBuffer()
          if (res.status !== 200) errors++
        } catch {
          errors++
        }
        latencies.push(performance.now() - t0)
      }
    }
    const t0 = performance.now()
    await Promise.all(Array.from({ length: concurrency }, (_, n) => poller(n * 7)))
    const elapsed = (performance.now() - t0) / 1000
    latencies.sort((a, b) => a - b)
    rows.push({
      pollers: concurrency,
      'open sessions': SESSIONS,
      requests: latencies.length,
      'req/s': Math.round(latencies.length / elapsed),
      'p50 ms': percentile(latencies, 50).toFixed(2),
      'p99 ms': percentile(latencies, 99).toFixed(2),
      errors,
    })
  }
  printTable(`GET /payment-sessions/{id} against the sandbox (${SECONDS}s per level)`, rows)
} finally {
  await sb.stop()
}
