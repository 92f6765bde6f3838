// The script-tag build, dist/cdn/<version>/ (vite.config.ts):
// - paysession-checkout.js: the first file (paints the button) plus lazy chunks beside it;
// - paysession-checkout.full.js: the same element with every chunk inlined, so one `integrity`
//   attribute pins every byte that runs (without WalletConnect);
// - walletconnect.js: WalletConnect's connector, fetched only when a checkout has a project id;
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

// The session read (preview.read.ts, loaded to paint the amount) and what it needs beyond the
// first file (the API client, errors, money formatting) are one file. Left to itself rolldown
// splits them in three by which lazy chunks share each module: three files every payment loads.
// A first build, not written, finds those modules; the real one groups them.
const probe = outputOf(await build({ configFile, logLevel: 'warn', build: { write: false } }))
const chunkOf = (fileName) => probe.find((chunk) => chunk.fileName === fileName)
const read = probe.find((chunk) => chunk.facadeModuleId?.endsWith('/preview.read.ts'))
if (!read) throw new Error('no session read chunk')
const readModules = new Set(
  [read, ...read.imports.filter((file) => file !== 'paysession-checkout.js').map(chunkOf)].flatMap(
    (chunk) => chunk.moduleIds,
  ),
)
const output = outputOf(
  await build({
    configFile,
    logLevel: 'warn',
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [{ name: 'preview.read', test: (id) => readModules.has(id) }],
          },
        },
      },
    },
  }),
)
// Grouped by hand, the read must still import nothing but the first file and rolldown's helpers.
const grouped = output.find((chunk) => chunk.name === 'preview.read')
const extra = grouped?.imports.filter(
  (file) => !/^(paysession-checkout|rolldown-runtime)/.test(file),
)
if (!grouped || extra.length) throw new Error(`the session read chunk imports ${extra}`)
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

// WalletConnect's connector, fetched by the chunked build only for a checkout with
// `wallet-connect-project-id`: one file built apart, so that it shares (and moves) no code of the
// dialog's; it repeats the few viem and wagmi helpers it needs.
const walletConnect = outputOf(
  await build({
    configFile,
    logLevel: 'warn',
    mode: 'walletconnect',
    build: {
      lib: { entry: 'src/walletconnect/connector.ts', fileName: () => 'walletconnect.js' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  }),
)
writeFileSync(
  new URL('dist/cdn.modules.json', root),
  `${JSON.stringify(
    {
      chunked: dependencyModules(output),
      singleFile: dependencyModules(single),
      walletConnect: dependencyModules(walletConnect),
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
