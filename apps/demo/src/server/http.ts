import { createReadStream, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
}

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/html; charset=utf-8',
) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  res.end(body)
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  send(res, status, JSON.stringify(body), 'application/json; charset=utf-8')
}

/** 303 See Other: the browser follows with a GET (post/redirect/get). */
export function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store' })
  res.end()
}

/** Reads an application/x-www-form-urlencoded body (the shop and console forms). */
export async function readForm(req: IncomingMessage, limit = 16 * 1024): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of req) {
    body += chunk
    if (body.length > limit) throw new Error('form too large')
  }
  return new URLSearchParams(body)
}

/**
 * Serves a file below `root`, or answers false when there is none (the caller 404s).
 * Never leaves `root`, whatever the path says.
 */
export function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  path: string,
): boolean {
  const file = resolve(root, `.${sep}${decodeURIComponent(path)}`)
  if (!file.startsWith(resolve(root) + sep)) return false
  let size: number
  try {
    const stat = statSync(file)
    if (!stat.isFile()) return false
    size = stat.size
  } catch {
    return false
  }
  res.writeHead(200, {
    'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'no-cache',
  })
  if (req.method === 'HEAD') res.end()
  else createReadStream(file).pipe(res)
  return true
}
