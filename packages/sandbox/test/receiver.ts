import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A webhook receiver that can be down (not listening) and come back on the same port. */
export function receiver() {
  const acked: { id: string; session: string; status: string }[] = []
  let server: Server | undefined
  const port = (() => {
    const probe = createServer()
    return new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port
        probe.close(() => resolve(p))
      }),
    )
  })()
  return {
    acked,
    url: async () => `http://127.0.0.1:${await port}/hooks`,
    async up() {
      server = createServer((req, res) => {
        let raw = ''
        req.on('data', (c) => {
          raw += c
        })
        req.on('end', () => {
          const body = JSON.parse(raw)
          acked.push({
            id: body.id,
            session: body.params[0].paymentSessionId,
            status: body.params[0].status,
          })
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: 'ok' }))
        })
      })
      const listenPort = await port
      await new Promise<void>((r) => server!.listen(listenPort, '127.0.0.1', r))
    },
    down: () => new Promise<void>((r) => (server ? server.close(() => r()) : r())),
    /** Statuses received for a session, each event once, in the order first received. */
    statuses(sessionId: string) {
      const seen = new Set<string>()
      return acked
        .filter((a) => a.session === sessionId && !seen.has(a.id) && seen.add(a.id))
        .map((a) => a.status)
    },
  }
}
