import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Context } from '../service/context.js'
import { ApiError } from '../service/errors.js'
import { shape } from './profile.js'
import { type Auth, routes } from './routes.js'

const MAX_BODY = 64 * 1024

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '600',
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...CORS })
  res.end(text)
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json.',
    )
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY)
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 64 KiB.')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > MAX_BODY)
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 64 KiB.')
    chunks.push(chunk)
  }
  let json: unknown
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new ApiError(400, 'MALFORMED_JSON', 'The body is not valid JSON.')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ApiError(400, 'INVALID_REQUEST', 'The body must be a JSON object.')
  return json as Record<string, unknown>
}

function authOf(ctx: Context, req: IncomingMessage): Auth {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  if (!m) return { kind: 'none' }
  const credential = m[1]!
  if (credential === ctx.options.apiKey) return { kind: 'merchant' }
  const session = ctx.db.sessions.byToken(credential)
  if (session)
    return { kind: 'session', session, expired: session.token_expires_at <= ctx.clock.now() }
  return { kind: 'unknown' }
}

/** A path segment; one that is not valid percent-encoding stays as sent (and matches nothing). */
function decodeParam(segment: string) {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const PREFIX = /^\/api\/v1(?=\/)/

/** Both path forms: `/payment-sessions/...` and `/api/v1/payment-sessions/...`. */
const normalise = (pathname: string) => pathname.replace(PREFIX, '').replace(/\/+$/, '') || '/'

export async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse) {
  try {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS)
      return res.end()
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = normalise(url.pathname)
    const prefixed = PREFIX.test(url.pathname)
    const profile = shape(ctx.options.profile)
    let allowed = false
    let otherForm = false
    for (const route of routes) {
      const m = route.pattern.exec(path)
      if (!m) continue
      if (!profile.allowsPath(route.form, prefixed)) {
        otherForm ||= route.method === req.method
        continue
      }
      allowed = true
      if (route.method !== req.method) continue
      // Credentials first: an unauthenticated request learns nothing, not even about its body.
      const auth = authOf(ctx, req)
      if (route.authenticated !== false && (auth.kind === 'none' || auth.kind === 'unknown'))
        throw new ApiError(
          401,
          'UNAUTHORIZED',
          'Send a valid credential as Authorization: Bearer <credential>.',
        )
      const body = route.method === 'POST' ? await readJson(req) : {}
      const params = (m.slice(1) as string[]).map(decodeParam)
      const out = await route.handler(ctx, {
        auth,
        params,
        body,
        query: url.searchParams,
      })
      return send(res, out.status, out.body)
    }
    if (allowed && !otherForm)
      throw new ApiError(
        405,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed on ${url.pathname}.`,
      )
    throw new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${url.pathname}.`)
  } catch (e) {
    if (e instanceof ApiError)
      return send(res, e.status, { error: { code: e.code, message: e.message } })
    ctx.log(`internal error: ${e instanceof Error ? e.stack : e}`)
    return send(res, 500, {
      error: { code: 'INTERNAL', message: 'The sandbox hit an unexpected error.' },
    })
  }
}

export async function listen(ctx: Context, port: number, host = '127.0.0.1') {
  const server = createServer((req, res) => void handle(ctx, req, res))
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
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
