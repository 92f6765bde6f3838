import { createServer, type ServerResponse } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { listenOn } from '../portInUse.js'
import type { Access } from './access.js'

// The chain port: JSON-RPC forwarded to anvil under the API's access rules (access.ts). anvil
// itself answers `access-control-allow-origin: *` and any Host, so a page of any site could call
// anvil_setBalance or anvil_impersonateAccount on a developer's sandbox; this server is the URL
// the sandbox hands out (its own clients use it too), and it reaches anvil only on its unix
// socket (chain/anvil.ts).

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

/** The length of the JSON value that `text` starts with once it is complete, else undefined. */
function completeJson(text: string): number | undefined {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1
  }
  return undefined
}

/**
 * One request on anvil's socket, on a connection of its own (a restarted anvil is simply reached
 * by the next one), answered with the one JSON value anvil writes back.
 */
function overSocket(path: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path)
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
      const end = completeJson(answer)
      if (end === undefined) return
      socket.destroy()
      resolve(answer.slice(0, end))
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error('anvil closed the socket before answering')))
    socket.write(body)
  })
}

/**
 * Listens on `port` (0: any free one) on 127.0.0.1 and forwards to anvil's socket at
 * `upstream()`, read per request so that a restarted anvil is reached without a new server.
 */
export async function listenChain(
  access: Access,
  port: number,
  upstream: () => string,
): Promise<ChainServer> {
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
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      // anvil's HTTP answers a body that is not JSON; its socket would wait for the rest.
      let parsed = true
      try {
        JSON.parse(body.toString())
      } catch {
        parsed = false
      }
      if (!parsed) {
        res.writeHead(200, { ...JSON_TYPE, ...cors })
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: 'Parse error' },
          }),
        )
      }
      overSocket(upstream(), body).then(
        (answer) => {
          res.writeHead(200, { ...JSON_TYPE, ...cors })
          res.end(answer)
        },
        (e: Error) =>
          refuse(
            res,
            502,
            'CHAIN_UNAVAILABLE',
            `The local chain (anvil) did not answer: ${e.message}`,
          ),
      )
    })
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
      }),
  }
}
