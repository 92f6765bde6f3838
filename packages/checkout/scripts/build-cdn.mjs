// The script-tag build, dist/cdn/<version>/ (vite.config.ts):
// - paysession-checkout.js: the first file (paints the button) plus lazy chunks beside it;
// - paysession-checkout.full.js: the same element with every chunk inlined, so one `integrity`
//   attribute pins every byte that runs (without WalletConnect);
// - <kind>.js: each bundled wallet kind's connector (src/wallets/<kind>/connector.ts), fetched only
//   when a checkout turns the kind on (walletconnect.js: with a project id);
// - sri.json: the SHA-384 Subresource Integrity hash of every .js file in the folder;
// - dist/cdn.modules.json (not shipped): the dependency modules each build bundles, which
//   test/modules.test.ts compares with what an app's bundler takes from the npm build.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { build } from 'vite'
import { dependencyModules } from './dependencyModules.mjs'

const root = new URL('..', import.meta.url)
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const dir = new URL(`dist/cdn/${version}/`, root)

// Only this version's folder is shipped: an older one left from before a version bump goes.
rmSync(new URL('dist/cdn/', root), { recursive: true, force: true })
const configFile = new URL('vite.config.ts', root).pathname
const outputOf = (result) => (Array.isArray(result) ? result[0] : result).output

// The session read (preview.read.ts, loaded to paint the amount) and the dialog (checkout.dialog.ts,
// loaded when the page is idle or on "Pay") each arrive whole, in one request. Left to itself
// rolldown moves the modules a lazy chunk shares with others (viem's hex and address helpers,
// also used by the rarer paths) into further chunks that it imports: fetched one after another,
// each a round trip on a phone between "Pay" and the wallet's prompt. The chunks sharing them
// load only after the dialog, so they import them from it. A first build, not written, finds
// the modules; the real one groups them (test/chunks.test.ts).
const probe = outputOf(await build({ configFile, logLevel: 'warn', build: { write: false } }))
const chunkOf = (fileName) => probe.find((chunk) => chunk.fileName === fileName)
const lazyChunk = (source) => {
  const chunk = probe.find((c) => c.facadeModuleId?.endsWith(source))
  if (!chunk) throw new Error(`no chunk for ${source}`)
  return chunk
}
/** A lazy chunk's modules and those of every chunk it imports, except the given chunks'. */
const modulesOf = (chunk, except) => {
  const files = new Set([chunk.fileName])
  for (const file of files)
    for (const next of chunkOf(file).imports) if (!except.includes(next)) files.add(next)
  return new Set([...files].flatMap((file) => chunkOf(file).moduleIds))
}
const read = lazyChunk('/preview.read.ts')
const readModules = modulesOf(read, ['paysession-checkout.js'])
const dialogModules = modulesOf(lazyChunk('/checkout.dialog.ts'), [
  'paysession-checkout.js',
  read.fileName,
])
const output = outputOf(
  await build({
    configFile,
    logLevel: 'warn',
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              { name: 'preview.read', test: (id) => readModules.has(id) },
              { name: 'checkout.dialog', test: (id) => dialogModules.has(id) },
            ],
          },
        },
      },
    },
  }),
)
// Grouped by hand, each must still import nothing but the files loaded before it and rolldown's
// helpers.
for (const [name, before] of [
  ['preview.read', /^(paysession-checkout|rolldown-runtime)/],
  ['checkout.dialog', /^(paysession-checkout|preview\.read|rolldown-runtime)/],
]) {
  const grouped = output.find((chunk) => chunk.name === name)
  const extra = grouped?.imports.filter((file) => !before.test(file))
  if (!grouped || extra.length) throw new Error(`the ${name} chunk imports ${extra}`)
}
const single = outputOf(
  await build({
    configFile,
    logLevel: 'warn',
    // vite.config.ts leaves WalletConnect out of the single file.
    mode: 'single-file',
    build: {
      lib: { fileName: () => 'paysession-checkout.full.js' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  }),
)

// Each wallet kind's connector, fetched by the chunked build only for a checkout that turns the
// kind on: one file built apart, so that it shares (and moves) no code of the dialog's; it
// repeats the few viem and wagmi helpers it needs.
const kinds = readdirSync(new URL('src/wallets/', root), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const walletModules = {}
for (const kind of kinds) {
  const built = outputOf(
    await build({
      configFile,
      logLevel: 'warn',
      mode: 'wallet',
      build: {
        lib: { entry: `src/wallets/${kind}/connector.ts`, fileName: () => `${kind}.js` },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    }),
  )
  walletModules[kind] = dependencyModules(built)
}
writeFileSync(
  new URL('dist/cdn.modules.json', root),
  `${JSON.stringify(
    {
      chunked: dependencyModules(output),
      singleFile: dependencyModules(single),
      ...walletModules,
    },
    null,
    2,
  )}\n`,
)

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
