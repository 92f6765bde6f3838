import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A real HTTP proxy in front of a service (the sandbox) that rewrites the JSON answers it
 * forwards: a service whose extensions (or listed fields) arrive with other types than the
 * sandbox's, for the SDK's tolerance tests. `rewrite` returns the new body, or undefined to keep it.
 * @example const odd = await startRewritingProxy(sb.apiUrl, (body) => ({ ...body, chainId: '1' }))
 */
export async function startRewritingProxy(
  target: string,
  rewrite: (
    body: Record<string, unknown>,
    method: string,
    url: string,
  ) => Record<string, unknown> | undefined,
) {
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    const headers = { ...req.headers, host: new URL(target).host }
    const upstream = request(`${target}${url}`, { method, headers }, async (up) => {
      const chunks: Buffer[] = []
      for await (const chunk of up) chunks.push(chunk as Buffer)
      let text = Buffer.concat(chunks).toString('utf8')
      const status = up.statusCode ?? 502
      if (status >= 200 && status < 300 && /json/.test(up.headers['content-type'] ?? '')) {
        const changed = rewrite(JSON.parse(text), method, url)
        if (changed) text = JSON.stringify(changed)
      }
      const out = { ...up.headers }
      delete out['content-length']
      res.writeHead(status, out)
      res.end(text)
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
