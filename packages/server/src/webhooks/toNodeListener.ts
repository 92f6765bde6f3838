import type { IncomingMessage, ServerResponse } from 'node:http'
import { setClientAddress } from '../http/clientIp.js'

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}

/**
 * The body as a stream the handler reads at its own pace: the handler's limit (readBody) stops
 * reading past it and answers 413 while the client may still be sending.
 */
function bodyOf(request: IncomingMessage): ReadableStream<Uint8Array> | Uint8Array {
  // A body parser that ran first (e.g. express.raw()) leaves the bytes on req.body.
  const parsed = (request as IncomingMessage & { body?: unknown }).body
  if (request.readableEnded) {
    if (Buffer.isBuffer(parsed)) return Uint8Array.from(parsed)
    if (typeof parsed === 'string') return new TextEncoder().encode(parsed)
    throw new Error(
      'The request body was already consumed and is not raw: mount the route before any JSON body parser, or use express.raw({ type: "application/json" }).',
    )
  }
  let open = true
  const stop = () => {
    open = false
    request.pause()
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.pause()
      request.on('data', (chunk: Buffer | string) => {
        if (!open) return
        controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)
        if ((controller.desiredSize ?? 0) <= 0) request.pause()
      })
      request.on('end', () => {
        if (open) controller.close()
        open = false
      })
      request.on('error', (error) => {
        if (open) controller.error(error)
        open = false
      })
    },
    pull() {
      if (open) request.resume()
    },
    cancel: stop,
  })
}

/**
 * Adapts a Fetch-style handler (the webhook handler, the relay) to a `node:http` listener
 * `(req, res)`, which also works as an Express/Connect route handler. The body is streamed to
 * the handler, which stops reading at its own limit; the peer address is kept for the relay's
 * rate limit (`setClientAddress`).
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(toNodeListener(createWebhookHandler({ secret, onEvent }))).listen(8080)
 */
export function toNodeListener(handler: (request: Request) => Promise<Response>): NodeListener {
  return (req, res) => {
    void (async () => {
      const method = req.method ?? 'GET'
      const body = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(req)
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
      const request = new Request(url, {
        method,
        headers: headersOf(req),
        ...(body === undefined ? {} : { body, duplex: 'half' }),
      } as RequestInit)
      setClientAddress(request, req.socket.remoteAddress)
      const response = await handler(request)
      res.statusCode = response.status
      response.headers.forEach((value, name) => {
        res.setHeader(name, value)
      })
      // A body the handler refused unread: close the connection rather than read the rest.
      if (!req.readableEnded) res.setHeader('connection', 'close')
      res.end(Buffer.from(await response.arrayBuffer()))
    })().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy(error instanceof Error ? error : undefined)
        return
      }
      res.statusCode = 500
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: {
            code: -32603,
            message: error instanceof Error ? error.message : 'Internal error.',
          },
          id: null,
        }),
      )
    })
  }
}
