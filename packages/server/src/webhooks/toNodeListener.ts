import type { IncomingMessage, ServerResponse } from 'node:http'
import type { WebhookHandler } from './createWebhookHandler.js'

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void

const maxBufferedBytes = 1024 * 1024

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}

async function rawBody(request: IncomingMessage): Promise<Buffer> {
  // A body parser that ran first (e.g. express.raw()) leaves the bytes on req.body.
  const parsed = (request as IncomingMessage & { body?: unknown }).body
  if (request.readableEnded) {
    if (Buffer.isBuffer(parsed)) return parsed
    if (typeof parsed === 'string') return Buffer.from(parsed)
    throw new Error(
      'The request body was already consumed and is not raw: mount the webhook route before any JSON body parser, or use express.raw({ type: "application/json" }).',
    )
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += buffer.byteLength
    // Stop buffering past the limit; the handler then answers 413 on the length alone.
    if (size <= maxBufferedBytes) chunks.push(buffer)
  }
  return size > maxBufferedBytes ? Buffer.alloc(maxBufferedBytes + 1) : Buffer.concat(chunks)
}

/**
 * Adapts a Fetch-style handler to a `node:http` listener `(req, res)`, which also
 * works as an Express/Connect route handler.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(toNodeListener(createWebhookHandler({ secret, onEvent }))).listen(8080)
 */
export function toNodeListener(handler: WebhookHandler): NodeListener {
  return (req, res) => {
    void (async () => {
      const method = req.method ?? 'GET'
      const body = method === 'GET' || method === 'HEAD' ? undefined : await rawBody(req)
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
      const request = new Request(url, {
        method,
        headers: headersOf(req),
        ...(body === undefined ? {} : { body: Uint8Array.from(body) }),
      })
      const response = await handler(request)
      res.statusCode = response.status
      response.headers.forEach((value, name) => {
        res.setHeader(name, value)
      })
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
