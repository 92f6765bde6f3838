// The script-tag build, dist/cdn/<version>/ (vite.config.ts):
// - paysession-checkout.js: the first file (paints the button) plus lazy chunks beside it;
// - paysession-checkout.full.js: the same element with every chunk inlined, so one `integrity`
//   attribute pins every byte that runs;
// - sri.json: the SHA-384 Subresource Integrity hash of every .js file in the folder.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { build } from 'vite'

const root = new URL('..', import.meta.url)
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const dir = new URL(`dist/cdn/${version}/`, root)

// Only this version's folder is shipped: an older one left from before a version bump goes.
rmSync(new URL('dist/cdn/', root), { recursive: true, force: true })
const configFile = new URL('vite.config.ts', root).pathname
await build({ configFile, logLevel: 'warn' })
await build({
  configFile,
  logLevel: 'warn',
  build: {
    lib: { fileName: () => 'paysession-checkout.full.js' },
    rolldownOptions: { output: { codeSplitting: false } },
  },
})

const integrity = (file) =>
  `sha384-${createHash('sha384')
    .update(readFileSync(new URL(file, dir)))
    .digest('base64')}`
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.js'))
  .sort()
writeFileSync(
  new URL('sri.json', dir),
  `${JSON.stringify(Object.fromEntries(files.map((file) => [file, integrity(file)])), null, 2)}\n`,
)
console.log(`dist/cdn/${version}: ${files.join(', ')} + sri.json`)
