import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { isAddressInUse, PortInUseError } from '../portInUse.js'
import type { Context } from '../service/context.js'
import { handleRequest } from './handler.js'

// The Node adapter's HTTP side: node:http in front of the fetch-style handler.

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

async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse) {
  let request: Request
  try {
    request = toRequest(req)
  } catch {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' })
    return res.end(
      JSON.stringify({
        error: { code: 'INVALID_REQUEST', message: 'The request line or headers cannot be read.' },
      }),
    )
  }
  const response = await handleRequest(ctx, request)
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.end(Buffer.from(await response.arrayBuffer()))
}

export async function listen(ctx: Context, port: number, host = '127.0.0.1') {
  const server = createServer((req, res) => void handle(ctx, req, res))
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        isAddressInUse(error)
          ? new PortInUseError(port, 'the sandbox API', 'PAYSESSION_PORT (port)', { cause: error })
          : error,
      ),
    )
    server.listen(port, host, resolve)
  })
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
