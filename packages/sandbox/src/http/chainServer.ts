import { Agent, createServer, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { listenOn } from '../portInUse.js'
import type { Access } from './access.js'

// The chain port: JSON-RPC forwarded to anvil under the API's access rules (access.ts). anvil
// itself answers `access-control-allow-origin: *` and any Host, so a page of any site could call
// anvil_setBalance or anvil_impersonateAccount on a developer's sandbox; it listens on a free
// port with CORS off, and this server is the URL the sandbox hands out.

export interface ChainServer {
  url: string
  port: number
  close(): Promise<void>
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

function refuse(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, JSON_TYPE)
  res.end(JSON.stringify({ error: { code, message } }))
}

/**
 * Listens on `port` (0: any free one) on 127.0.0.1 and forwards to `upstream()`, read per request
 * so that a restarted anvil is reached without a new server.
 */
export async function listenChain(
  access: Access,
  port: number,
  upstream: () => string,
): Promise<ChainServer> {
  const agent = new Agent({ keepAlive: true })
  const server = createServer((req, res) => {
    const origin = req.headers.origin
    const refusal = access.refusal(req.headers.host, origin)
    if (refusal) return refuse(res, refusal.status, refusal.code, refusal.message)
    const cors = access.cors(origin)
    if (req.method === 'OPTIONS') {
      const privateNetwork = req.headers['access-control-request-private-network'] === 'true'
      res.writeHead(204, { allow: 'POST, OPTIONS', ...cors, ...access.preflight(privateNetwork) })
      return res.end()
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST, OPTIONS')
      return refuse(res, 405, 'METHOD_NOT_ALLOWED', 'The chain answers JSON-RPC over POST.')
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (req.headers['content-length']) headers['content-length'] = req.headers['content-length']
    const forward = request(upstream(), { method: 'POST', headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, {
        'content-type': up.headers['content-type'] ?? 'application/json',
        ...cors,
      })
      up.pipe(res)
    })
    forward.on('error', (e) => {
      if (res.headersSent) return res.destroy()
      refuse(res, 502, 'CHAIN_UNAVAILABLE', `The local chain (anvil) did not answer: ${e.message}`)
    })
    req.pipe(forward)
  })
  server.keepAliveTimeout = 5000
  await listenOn(
    server,
    port,
    '127.0.0.1',
    'the local chain (anvil)',
    'PAYSESSION_CHAIN_PORT (chainPort)',
  )
  const bound = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      }),
  }
}
