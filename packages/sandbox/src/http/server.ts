import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { listenOn } from '../portInUse.js'
import type { Context } from '../service/context.js'
import type { ApiError } from '../service/errors.js'
import type { Access } from './access.js'
import { handleRequest } from './handler.js'

// The Node adapter's HTTP side: node:http in front of the fetch-style handler, and the checks of
// who may call (access.ts) that only a server reachable from a browser needs.

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

function refuse(res: ServerResponse, error: ApiError) {
  res.writeHead(error.status, JSON_TYPE)
  res.end(JSON.stringify({ error: { code: error.code, message: error.message } }))
}

async function handle(ctx: Context, access: Access, req: IncomingMessage, res: ServerResponse) {
  const origin = req.headers.origin
  const refusal = access.refusal(req.headers.host, origin)
  if (refusal) return refuse(res, refusal)
  const cors = access.cors(origin)
  if (req.method === 'OPTIONS') {
    const privateNetwork = req.headers['access-control-request-private-network'] === 'true'
    res.writeHead(204, {
      allow: 'GET, POST, OPTIONS',
      ...cors,
      ...access.preflight(privateNetwork),
    })
    return res.end()
  }
  let request: Request
  try {
    request = toRequest(req)
  } catch {
    res.writeHead(400, JSON_TYPE)
    return res.end(
      JSON.stringify({
        error: { code: 'INVALID_REQUEST', message: 'The request line or headers cannot be read.' },
      }),
    )
  }
  const response = await handleRequest(ctx, request)
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...cors })
  res.end(Buffer.from(await response.arrayBuffer()))
}

export async function listen(ctx: Context, access: Access, port: number, host = '127.0.0.1') {
  const server = createServer((req, res) => void handle(ctx, access, req, res))
  server.keepAliveTimeout = 5000
  await listenOn(server, port, host, 'the sandbox API', 'PAYSESSION_PORT (port)')
  return {
    server,
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
