import { createServer } from 'node:net'

/** Ports free right now on 127.0.0.1, so a bench never collides with a dev server or a test run. */
export async function freePorts<N extends number>(count: N): Promise<number[] & { length: N }> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer()
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => (server.address() as { port: number }).port)
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports as number[] & { length: N }
}

/** `BENCH_SMOKE=1`: every bench once with tiny sizes, to prove it still runs (npm test). */
export const smoke = process.env.BENCH_SMOKE === '1'
