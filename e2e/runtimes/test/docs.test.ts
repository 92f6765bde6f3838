import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

// docs/runtimes.md shows each example file under a `<!-- file: path -->` marker; what it shows
// must be what the runtime suite runs.
const root = new URL('../../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

test('every recipe in docs/runtimes.md is the example file the suite runs', () => {
  const doc = read('docs/runtimes.md')
  const shown = [...doc.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```\n/g)]
  const paths = shown.map((m) => m[1])
  expect(paths).toEqual(
    expect.arrayContaining([
      'examples/shop/shop.js',
      'examples/node/server.js',
      'examples/express/server.js',
      'examples/hono/server.js',
      'examples/nextjs/app/route.ts',
      'examples/nextjs/app/webhooks/paysession/route.ts',
      'examples/nextjs/app/relay/route.ts',
      'examples/cloudflare-worker/src/worker.ts',
      'examples/deno/main.ts',
      'examples/bun/server.ts',
    ]),
  )
  for (const [, path, body] of shown) expect(body, path).toBe(read(path!))
})
