// The other SDKs' minimal "connect a wallet and pay 10 USDC" apps (bench/size/apps), installed
// from bench/size/competitors (a standalone npm project with its own lockfile) and bundled with
// the same vite settings for every app. The size bench measures the bundles; the phone bench
// serves them. Method: bench/size/README.md.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const bench = fileURLToPath(new URL('../', import.meta.url))
const repo = join(bench, '..')
export const competitorsDir = join(bench, 'size', 'competitors')
export const appsDir = join(bench, 'size', 'apps')
const nm = join(competitorsDir, 'node_modules')
const lockfile = join(competitorsDir, 'package-lock.json')

// competitors/ holds two wagmi stacks: wagmi 2 (+ @wagmi/core 2, @wagmi/connectors 6) at the top of
// node_modules, for RainbowKit, ConnectKit and OnchainKit, which require wagmi 2; and wagmi 3 under
// alias names, for a second baseline and AppKit (its adapter takes either; a fresh install gets
// wagmi 3, the default row; wagmi 2 is the second AppKit row). The same app source is built twice.
const WAGMI3 = {
  wagmi: 'wagmi-3',
  '@wagmi/core': 'wagmi-core-3',
  '@wagmi/connectors': 'wagmi-connectors-8',
}

/**
 * Each competitor app: its source folder (`name`), the build's folder (`outName`, else `name`),
 * the packages whose versions we report, and per-app aliases.
 */
export const APPS = [
  {
    name: 'wagmi-baseline',
    label: 'Baseline: wagmi 2 + viem + react-query, no UI',
    pkgs: ['wagmi', 'viem'],
  },
  {
    name: 'wagmi-baseline',
    label: 'Baseline: wagmi 3 + viem + react-query, no UI',
    pkgs: ['wagmi-3', 'viem'],
    alias: WAGMI3,
    outName: 'wagmi3-baseline',
  },
  {
    name: 'rainbowkit',
    label: 'RainbowKit (wagmi 2 + React 19)',
    pkgs: ['@rainbow-me/rainbowkit', 'wagmi'],
  },
  {
    name: 'reown-appkit',
    label: 'Reown AppKit (wagmi 3 adapter)',
    pkgs: ['@reown/appkit', '@reown/appkit-adapter-wagmi', 'wagmi-3'],
    alias: WAGMI3,
  },
  {
    name: 'reown-appkit',
    label: 'Reown AppKit (wagmi 2 adapter)',
    pkgs: ['@reown/appkit', '@reown/appkit-adapter-wagmi', 'wagmi'],
    outName: 'reown-appkit-wagmi2',
  },
  {
    name: 'connectkit',
    label: 'ConnectKit (wagmi 2 + React 18)',
    pkgs: ['connectkit', 'wagmi', 'react-18'],
    alias: { react: 'react-18', 'react-dom': 'react-dom-18' },
  },
  {
    name: 'onchainkit-checkout',
    label: 'OnchainKit <Checkout>',
    pkgs: ['@coinbase/onchainkit', 'wagmi'],
  },
  { name: 'thirdweb-checkout', label: 'thirdweb <CheckoutWidget>', pkgs: ['thirdweb'] },
]
export const outName = (app) => app.outName ?? app.name

const sha256 = (...parts) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}
const lockHash = () => sha256(readFileSync(lockfile))

/**
 * Installs competitors/ with `npm ci` unless node_modules was installed from this very lockfile
 * (a hash written after the install). Returns an error sentence, or null.
 */
export function ensureInstalled() {
  const marker = join(nm, '.bench-lock-sha256')
  const hash = lockHash()
  if (existsSync(marker) && readFileSync(marker, 'utf8') === hash) return null
  // .npmrc in competitors/ sets legacy-peer-deps=true (the SDKs' peer ranges conflict).
  console.error(
    `bench: npm ci in ${relative(repo, competitorsDir)} (when its lockfile changes; minutes)…`,
  )
  const started = Date.now()
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: competitorsDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  })
  if (r.status !== 0) return `npm ci failed (exit ${r.status})`
  writeFileSync(marker, hash)
  console.error(`bench: npm ci took ${Math.round((Date.now() - started) / 1000)} s`)
  return null
}

export function installed(pkg) {
  try {
    return JSON.parse(readFileSync(join(nm, pkg, 'package.json'), 'utf8'))
  } catch {
    return undefined
  }
}
export const installedVersion = (pkg) => installed(pkg)?.version

/** name@version -> every root of that package in competitors/node_modules, shortest path first. */
function indexPackages() {
  const index = new Map()
  const rootKey = new Map()
  const visitPackage = (root) => {
    try {
      const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
      if (name && version) {
        const key = `${name}@${version}`
        rootKey.set(root, key)
        index.set(key, [...(index.get(key) ?? []), root])
      }
    } catch {}
    if (existsSync(join(root, 'node_modules'))) visitModules(join(root, 'node_modules'))
  }
  const visitModules = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue
      if (e.name.startsWith('@')) {
        for (const s of readdirSync(join(dir, e.name), { withFileTypes: true }))
          if (s.isDirectory()) visitPackage(join(dir, e.name, s.name))
      } else visitPackage(join(dir, e.name))
    }
  }
  visitModules(nm)
  for (const roots of index.values()) roots.sort((x, y) => x.length - y.length || (x < y ? -1 : 1))
  return { canonical: (root) => index.get(rootKey.get(root))?.[0] }
}

/**
 * Resolution for the competitor apps:
 * - bare imports from bench/size/apps/** resolve as if imported from competitors/ (its node_modules);
 * - identical copies of one package (same name@version at several node_modules paths, an artefact
 *   of installing all SDKs into one tree) collapse to one copy, so no SDK pays for our shared tree.
 */
function competitorResolution(packages) {
  const fakeImporter = join(competitorsDir, 'index.js')
  return {
    name: 'bench-size-resolution',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith('\0') || !importer) return null
      const fromApp = importer.startsWith(appsDir) && !/^[./]|^[a-z]+:/i.test(source)
      const r = await this.resolve(source, fromApp ? fakeImporter : importer, {
        ...options,
        skipSelf: true,
      })
      if (!r || r.external || !packages) return r
      const m = r.id.match(/^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)([\\/].*)$/)
      const root = m && packages.canonical(m[1])
      if (!root || root === m[1]) return r
      const id = root + m[2]
      return existsSync(id.split('?')[0]) ? { ...r, id } : r
    },
  }
}

/**
 * The installed vite and React plugin, and the index of identical copies
 * (BENCH_SIZE_NO_DEDUPE=1 bundles the tree as installed).
 */
export async function loadBundler() {
  const vite = await import(pathToFileURL(join(nm, 'vite/dist/node/index.js')).href)
  const react = (await import(pathToFileURL(join(nm, '@vitejs/plugin-react/dist/index.js')).href))
    .default
  const packages = process.env.BENCH_SIZE_NO_DEDUPE ? null : indexPackages()
  return {
    vite,
    react,
    packages,
    name: `vite ${installedVersion('vite')} (rolldown ${installedVersion('rolldown')})`,
  }
}

/** Bundles `app` into `outDir` (emptied first), with a vite manifest; its build time in s. */
export async function buildApp({ vite, react, packages }, app, outDir) {
  rmSync(outDir, { recursive: true, force: true })
  const t0 = Date.now()
  await vite.build({
    configFile: false,
    envFile: false,
    root: join(appsDir, app.name),
    mode: 'production',
    logLevel: 'error',
    plugins: [competitorResolution(packages), react()],
    resolve: { alias: app.alias ?? {} },
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      cssMinify: true,
      sourcemap: false,
      manifest: true,
      reportCompressedSize: false,
      copyPublicDir: false,
      target: 'es2022', // as packages/checkout/vite.config.ts
      chunkSizeWarningLimit: 100_000,
      rolldownOptions: { input: join(appsDir, app.name, 'main.tsx') },
    },
  })
  return (Date.now() - t0) / 1000
}

/** The JS entry and the CSS a build's first load needs (its vite manifest), as /-paths. */
export function entryOf(outDir) {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'))
  const [entry] = Object.values(manifest).filter((chunk) => chunk.isEntry)
  const css = new Set()
  const visit = (chunk) => {
    for (const file of chunk.css ?? []) css.add(`/${file}`)
    for (const key of chunk.imports ?? []) visit(manifest[key])
  }
  visit(entry)
  return { script: `/${entry.file}`, styles: [...css] }
}

const walkFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walkFiles(join(dir, e.name)) : [join(dir, e.name)],
  )

/**
 * Builds of the apps named (by `outName`), made once per lockfile and app sources and kept in
 * bench/.competitors/<key>/ (ignored by git): `{ dirs: { name: folder } }` or `{ error }`.
 * Installs competitors/ first when needed; the figures of that first time go to stderr.
 */
export async function cachedBuilds(names) {
  const sources = walkFiles(appsDir).sort()
  const key = sha256(
    lockHash(),
    readFileSync(fileURLToPath(import.meta.url)),
    ...sources.flatMap((file) => [relative(appsDir, file), readFileSync(file)]),
  ).slice(0, 16)
  const cache = join(bench, '.competitors')
  const dir = join(cache, key)
  const apps = names.map((name) => APPS.find((app) => outName(app) === name))
  const dirs = Object.fromEntries(names.map((name) => [name, join(dir, name)]))
  const missing = apps.filter((app) => !existsSync(join(dirs[outName(app)], '.vite/manifest.json')))
  if (!missing.length) return { dirs }
  const started = Date.now()
  const error = ensureInstalled()
  if (error) return { error }
  const bundler = await loadBundler()
  // Older keys' builds are of another lockfile or other sources: never used again.
  if (existsSync(cache))
    for (const old of readdirSync(cache))
      if (old !== key) rmSync(join(cache, old), { recursive: true, force: true })
  for (const app of missing) {
    const out = join(dir, outName(app))
    const building = `${out}.building`
    await buildApp(bundler, app, building)
    renameSync(building, out)
  }
  console.error(
    `bench: built ${missing.map(outName).join(', ')} into ${relative(repo, dir)} in ${Math.round((Date.now() - started) / 1000)} s`,
  )
  return { dirs }
}
