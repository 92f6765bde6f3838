import type { Context } from '../service/context.js'
import { ApiError } from '../service/errors.js'
import { shape } from './profile.js'
import { type Auth, routes } from './routes.js'

// The service's HTTP surface as a fetch-style handler, `(Request) => Promise<Response>`: the Node
// adapter (server.ts) serves it on node:http, and an in-page adapter can hand it to anything that
// takes a custom `fetch` (the checkout, @paysession/server). CORS and the Host check are the Node
// adapter's (access.ts): an in-page caller is no cross-origin page.

const MAX_BODY = 64 * 1024

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })

const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 64 KiB.')

/** The body, read no further than MAX_BODY. */
async function readBody(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json.',
    )
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY) throw tooLarge()
  const bytes = await readBody(request)
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new ApiError(400, 'MALFORMED_JSON', 'The body is not valid JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiError(400, 'INVALID_REQUEST', 'The body must be a JSON object.')
  return value as Record<string, unknown>
}

function authOf(ctx: Context, request: Request): Auth {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
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

/** Answers one request; never throws. Only the URL's path and query count, not its origin. */
export async function handleRequest(ctx: Context, request: Request): Promise<Response> {
  try {
    const url = new URL(request.url)
    const path = normalise(url.pathname)
    const prefixed = PREFIX.test(url.pathname)
    const profile = shape(ctx.options.profile)
    let allowed = false
    let otherForm = false
    for (const route of routes) {
      const m = route.pattern.exec(path)
      if (!m) continue
      if (!profile.allowsPath(route.form, prefixed)) {
        otherForm ||= route.method === request.method
        continue
      }
      allowed = true
      if (route.method !== request.method) continue
      // Credentials first: an unauthenticated request learns nothing, not even about its body.
      const auth = authOf(ctx, request)
      if (route.authenticated !== false && (auth.kind === 'none' || auth.kind === 'unknown'))
        throw new ApiError(
          401,
          'UNAUTHORIZED',
          'Send a valid credential as Authorization: Bearer <credential>.',
        )
      const body = route.method === 'POST' ? await readJson(request) : {}
      const params = (m.slice(1) as string[]).map(decodeParam)
      const out = await route.handler(ctx, {
        auth,
        params,
        body,
        query: url.searchParams,
      })
      return json(out.status, out.body)
    }
    if (allowed && !otherForm)
      throw new ApiError(
        405,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${url.pathname}.`,
      )
    throw new ApiError(404, 'NOT_FOUND', `No route for ${request.method} ${url.pathname}.`)
  } catch (e) {
    if (e instanceof ApiError)
      return json(e.status, { error: { code: e.code, message: e.message } })
    ctx.log(`internal error: ${e instanceof Error ? e.stack : e}`)
    return json(500, {
      error: { code: 'INTERNAL', message: 'The sandbox hit an unexpected error.' },
    })
  }
}
