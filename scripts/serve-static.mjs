// A plain static file server, as GitHub Pages or a CDN bucket serves a folder: GET only, files
// under one base path, nothing else. The hosted demo's e2e scenarios and its benchmark serve
// apps/demo/dist/hosted with it, and `npm run serve:hosted` lets anyone with only Node try it:
//   node scripts/serve-static.mjs <folder> [--port 8080] [--base /sub/path/]
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
}

/**
 * Serves `folder` under `base` on 127.0.0.1. With `gzip`, answers compressed and cacheable for
 * ten minutes, as GitHub Pages does.
 * @param {{ folder: string, base?: string, port?: number, gzip?: boolean }} options
 * @returns {Promise<{ server: import('node:http').Server, origin: string, url: string, close(): Promise<void> }>}
 */
export async function serveStatic({ folder, base = '/', port = 0, gzip = false }) {
  // Each file compressed once per version, as a static host keeps it: not again on every request.
  /** @type {Map<string, { mtimeMs: number, body: Buffer }>} */
  const compressed = new Map()
  const gzipped = async (path) => {
    const { mtimeMs } = await stat(path)
    const kept = compressed.get(path)
    if (kept?.mtimeMs === mtimeMs) return kept.body
    const body = gzipSync(await readFile(path))
    compressed.set(path, { mtimeMs, body })
    return body
  }
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://static.local').pathname)
    const rest = path.startsWith(base) ? path.slice(base.length) : undefined
    const file =
      rest === undefined ? '' : normalize(rest.endsWith('/') || !rest ? `${rest}index.html` : rest)
    if (req.method !== 'GET' || !file || file.startsWith('..')) {
      res.writeHead(404).end()
      return
    }
    try {
      const onDisk = join(folder, file)
      const compress = gzip && /\bgzip\b/.test(String(req.headers['accept-encoding']))
      const body = compress ? await gzipped(onDisk) : await readFile(onDisk)
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        ...(gzip ? { 'cache-control': 'public, max-age=600' } : {}),
        ...(compress ? { 'content-encoding': 'gzip' } : {}),
      })
      res.end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise((done, fail) => server.once('error', fail).listen(port, '127.0.0.1', done))
  const origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`
  return {
    server,
    origin,
    url: `${origin}${base}`,
    close: () => new Promise((done) => server.close(() => done())),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [folder, ...flags] = process.argv.slice(2)
  const flag = (name) => flags[flags.indexOf(`--${name}`) + 1]
  if (!folder) {
    console.error('usage: node scripts/serve-static.mjs <folder> [--port 8080] [--base /sub/path/]')
    process.exit(2)
  }
  const { url } = await serveStatic({
    folder: resolve(folder),
    base: flags.includes('--base') ? flag('base') : '/',
    port: flags.includes('--port') ? Number(flag('port')) : 8080,
  })
  console.log(`Serving ${folder} at ${url} (Ctrl+C stops)`)
}
