// Where the script-tag build's bytes come from: every module of one chunk with its rendered size
// (after tree-shaking, before minifying) and its own gzip size, by package first. Builds in
// memory with vite.config.ts, writes nothing. For the next size pass:
//   node scripts/size-by-module.mjs [chunk name prefix, default checkout.dialog] [rows, default 60]
// The sizes of a module alone overstate its share of the chunk's gzip (about twice); compare
// builds with scripts/check-size.mjs for the real effect of a change.
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const [prefix = 'checkout.dialog', rows = '60'] = process.argv.slice(2)
const configFile = new URL('../vite.config.ts', import.meta.url).pathname
const result = await build({ configFile, logLevel: 'warn', build: { write: false } })
const chunks = (Array.isArray(result) ? result[0] : result).output.filter(
  (chunk) => chunk.type === 'chunk' && chunk.fileName.startsWith(prefix),
)
if (!chunks.length) throw new Error(`no chunk starts with ${prefix}`)
const name = (id) =>
  id.replace(/.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/.*\/packages\//, '')
const modules = chunks
  .flatMap((chunk) => Object.entries(chunk.modules))
  .map(([id, module]) => ({
    name: name(id),
    size: module.renderedLength,
    gzip: module.code ? gzipSync(module.code, { level: 9 }).length : 0,
  }))
  .sort((a, b) => b.size - a.size)
const packages = new Map()
for (const { name, size } of modules) {
  const parts = name.split('/')
  const key = parts.slice(0, name.startsWith('@') ? 2 : 1).join('/')
  packages.set(key, (packages.get(key) ?? 0) + size)
}
console.log(`${chunks.map((chunk) => chunk.fileName).join(', ')}\n\nrendered bytes by package:`)
for (const [key, size] of [...packages].sort((a, b) => b[1] - a[1]))
  console.log(`${String(size).padStart(8)}  ${key}`)
console.log('\nrendered  gzip alone  module')
for (const { name, size, gzip } of modules.slice(0, Number(rows)))
  console.log(`${String(size).padStart(8)}  ${String(gzip).padStart(10)}  ${name}`)
