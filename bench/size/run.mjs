// Bundle size, side by side in one run: our script-tag build vs. the minimal
// "connect a wallet and pay 10 USDC" app of other checkout / wallet SDKs.
// Method: bench/size/README.md. Usage: node bench/size/run.mjs (writes bench/size/dist/results.json,
// ignored by git: a run's figures belong to its machine and day; the README keeps the table).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import {
  APPS,
  buildApp,
  ensureInstalled,
  installed,
  installedVersion,
  loadBundler,
  outName,
} from '../lib/competitors.mjs'
import { referenceBuild, thisTreeBuild } from '../lib/reference.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../..')
const outRoot = join(here, 'dist') // ignored by git and biome (**/dist)
const oursDir = thisTreeBuild()
const OURS_FIRST = 'paysession-checkout.js'

const kb = (n) => Math.round((n / 1024) * 10) / 10
const gz = (buf) => gzipSync(buf, { level: 9 }).length

function sizeOf(files) {
  let min = 0
  let gzip = 0
  for (const f of files) {
    const buf = readFileSync(f)
    min += buf.length
    gzip += gz(buf)
  }
  return { files: files.length, min, gzip }
}

function walk(dir) {
  const out = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...walk(p))
    else out.push(p)
  }
  return out
}
const isAsset = (f) => /\.(m?js|css)$/.test(f)

// ---------------------------------------------------------------- ours

// Same definition as packages/checkout/scripts/check-size.mjs (the CI budget):
// - first file: the entry and its static imports (paints the button);
// - full payment: the entry + the lazily imported session read and dialog chunks + their static
//   imports, plus the largest locale catalog (a payment loads at most one). viem's lazy ccip / secp256k1 chunks are
//   not loaded by an injected-wallet payment, so they only count in the "every file" row.
// A language's chunk is its locale, unhashed (de.js, pt-BR.js), imported lazily by the first file.
const isLocale = (file) => /^[a-z]{2}(?:-[A-Za-z]{2,4})?\.js$/.test(file)

function measureOurs(oursDir) {
  const readOurs = (file) => readFileSync(join(oursDir, file), 'utf8')
  const ourImports = (file, dynamic) => {
    const re = dynamic
      ? /import\(\s*["'`]\.\/([^"'`]+)["'`]\s*\)/g
      : /(?:from|import)\s*["'`]\.\/([^"'`]+)["'`]/g
    return [...readOurs(file).matchAll(re)].map((m) => m[1])
  }
  const staticClosure = (files) => {
    const seen = new Set()
    const visit = (f) => {
      if (seen.has(f) || !existsSync(join(oursDir, f))) return
      seen.add(f)
      for (const next of ourImports(f, false)) visit(next)
    }
    files.forEach(visit)
    return [...seen]
  }
  if (!existsSync(join(oursDir, OURS_FIRST))) {
    return {
      error: `not built — run the build (\`npm run build\`): no ${relative(repo, join(oursDir, OURS_FIRST))}`,
    }
  }
  const abs = (files) => files.map((f) => join(oursDir, f))
  // Every file of the build: the SRI manifest when present (it lists all of them), else every .js.
  const sri = join(oursDir, 'sri.json')
  const every = (
    existsSync(sri)
      ? Object.keys(JSON.parse(readFileSync(sri, 'utf8'))).filter((f) =>
          existsSync(join(oursDir, f)),
        )
      : readdirSync(oursDir).filter((f) => /\.(js|css)$/.test(f))
  ).filter((f) => !f.endsWith('.full.js')) // the single-file build repeats the split one
  const first = staticClosure([OURS_FIRST])
  const lazy = ourImports(OURS_FIRST, true)
  const dialog = lazy.find((f) => f.startsWith('checkout.dialog'))
  const reader = lazy.find((f) => f.startsWith('preview.read'))
  let payment
  let method
  if (dialog) {
    const catalogs = lazy.filter(isLocale)
    const largest = catalogs
      .map((f) => ({ f, gzip: gz(readFileSync(join(oursDir, f))) }))
      .sort((x, y) => y.gzip - x.gzip)[0]
    payment = [
      ...staticClosure([OURS_FIRST, ...(reader ? [reader] : []), dialog]),
      ...(largest ? [largest.f] : []),
    ]
    method =
      'first file + session read + dialog chunk + their static imports + the largest locale catalog (as check-size.mjs)'
  } else {
    payment = every
    method = 'no dialog chunk found: every file of dist/cdn'
  }
  return {
    version: oursDir.split('/').pop(),
    first: { ...sizeOf(abs(first)), list: first },
    full: { ...sizeOf(abs(payment)), list: payment },
    every: { ...sizeOf(abs(every)), list: every },
    method,
  }
}

// ---------------------------------------------------------------- competitors

async function measureApp(bundler, app) {
  const outDir = join(outRoot, outName(app))
  const seconds = await buildApp(bundler, app, outDir)
  const emitted = walk(outDir).filter((f) => !f.includes(`${join(outDir, '.vite')}`))
  const files = emitted.filter(isAsset)
  const others = emitted.filter((f) => !isAsset(f)) // e.g. .wasm fetched at run time: not counted
  // First load: the entry chunk, its static imports (recursively) and their CSS.
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'))
  const initial = new Set()
  const visit = (key) => {
    const c = manifest[key]
    if (!c || initial.has(join(outDir, c.file))) return
    initial.add(join(outDir, c.file))
    for (const css of c.css ?? []) initial.add(join(outDir, css))
    for (const k of c.imports ?? []) visit(k)
  }
  for (const [k, c] of Object.entries(manifest)) if (c.isEntry) visit(k)
  return {
    full: sizeOf(files),
    initial: sizeOf([...initial]),
    otherAssets: Object.fromEntries(others.map((f) => [relative(outDir, f), statSync(f).size])),
    seconds,
  }
}

async function measureCompetitors() {
  const installError = ensureInstalled()
  if (installError) return APPS.map((app) => ({ app, error: installError }))
  const bundler = await loadBundler()
  const rows = []
  for (const app of APPS) {
    // Real package names (wagmi-3 is wagmi, react-18 is react): name -> installed version.
    const versions = Object.fromEntries(
      app.pkgs.map((p) => [installed(p)?.name ?? p, installedVersion(p)]),
    )
    const missing = app.pkgs.filter((p) => !installedVersion(p))
    if (missing.length) {
      rows.push({ app, versions, error: `not installed: ${missing.join(', ')}` })
      continue
    }
    try {
      rows.push({ app, versions, ...(await measureApp(bundler, app)) })
    } catch (e) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colours
      const text = String(e?.message ?? e).replace(/\u001b\[[0-9;]*m/g, '')
      const lines = text.split('\n').map((l) => l.trim())
      const at = lines.indexOf('Caused by:')
      const cause = at >= 0 ? lines[at + 1] : lines.find((l) => l && !/^Build failed/.test(l))
      const msg = cause?.slice(0, 220)
      rows.push({ app, versions, error: `build failed: ${msg}` })
    }
    process.stderr.write(
      `bench/size: ${app.outName ?? app.name} ${rows.at(-1).error ?? `${rows.at(-1).seconds}s`}\n`,
    )
  }
  return { rows, bundler: bundler.name }
}

// ---------------------------------------------------------------- table

const started = Date.now()
const smoke = process.env.BENCH_SMOKE === '1'
const ours = measureOurs(oursDir)
// The same rows for the reference build (bench/lib/reference.mjs), side by side.
const reference = referenceBuild({ build: !smoke })
const theirs = reference.error ? reference : measureOurs(reference.dir)
// The quick pass of npm test (BENCH_SMOKE=1) measures ours only: the other SDKs need an install.
const comp = smoke ? [] : await measureCompetitors()
const compRows = Array.isArray(comp) ? comp : comp.rows
const bundler = Array.isArray(comp) ? 'n/a' : comp.bundler
const oursFull = ours.full?.gzip
const oursFirst = ours.first?.gzip

const ratio = (g, base) => (base ? `${(g / base).toFixed(1)}×` : 'n/a')
const rows = []
const failures = [] // printed under the table, to keep the table narrow
if (ours.error) {
  rows.push(['**paysession-checkout** (script tag)', '', '', 'not built', '', '', '', ''])
  failures.push(`paysession-checkout: ${ours.error}`)
} else {
  const v = `@paysession/checkout@${ours.version}`
  const { first, full, every } = ours
  rows.push([
    '**paysession-checkout: first file**',
    v,
    first.list.length,
    kb(first.min),
    kb(first.gzip),
    kb(first.gzip),
    '—',
    '1.0×',
  ])
  rows.push([
    '**paysession-checkout: full payment**',
    v,
    full.list.length,
    kb(full.min),
    kb(full.gzip),
    kb(first.gzip),
    '1.0×',
    '1.0×',
  ])
  rows.push([
    'paysession-checkout: every file in dist/cdn',
    v,
    every.list.length,
    kb(every.min),
    kb(every.gzip),
    kb(first.gzip),
    ratio(every.gzip, oursFull),
    '1.0×',
  ])
}
if (theirs.error) failures.push(`reference build: ${theirs.error}`)
else {
  const v = `${reference.ref} (${reference.commit.slice(0, 7)})`
  for (const [what, part] of [
    ['first file', theirs.first],
    ['full payment', theirs.full],
  ])
    rows.push([
      `reference: ${what}`,
      v,
      part.list.length,
      kb(part.min),
      kb(part.gzip),
      kb(theirs.first.gzip),
      ratio(part.gzip, what === 'first file' ? oursFirst : oursFull),
      ratio(theirs.first.gzip, oursFirst),
    ])
}
for (const r of compRows) {
  const version = Object.entries(r.versions ?? {})
    .map(([p, v]) => `${p}@${v ?? '?'}`)
    .join(' ')
  if (r.error) {
    rows.push([r.app.label, version, '', 'n/a', '', '', '', ''])
    failures.push(`${r.app.label}: n/a: ${r.error}`)
    continue
  }
  rows.push([
    r.app.label,
    version,
    r.full.files,
    kb(r.full.min),
    kb(r.full.gzip),
    kb(r.initial.gzip),
    ratio(r.full.gzip, oursFull),
    ratio(r.initial.gzip, oursFirst),
  ])
}
const head = [
  'SDK',
  'version',
  'files',
  'min KB',
  'gzip KB',
  'first-load gzip KB',
  'ratio vs ours (gzip)',
  'first-load ratio',
]
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
const numeric = (i) => i >= 2
const line = (cells) =>
  `| ${cells.map((c, i) => (numeric(i) ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ')} |`
const md = [
  line(head),
  `|${widths.map((w, i) => (numeric(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
  ...rows.map(line),
].join('\n')

const notes = [
  `KB = 1024 bytes. min = minified production output; gzip = node:zlib level 9, summed per file.`,
  `Ours: measured from its real script-tag build (packages/checkout/dist/cdn, built by its own vite config).` +
    (ours.method ? ` Full payment = ${ours.method}.` : ''),
  `Competitors: bundled in this run by ${bundler}, production, minified, tree-shaken, target es2022; ` +
    '"gzip KB" = every JS + CSS file the build emits (lazy chunks included); ' +
    '"first-load" = entry chunk + its static imports + their CSS.',
  'ratio vs ours = their gzip KB / our full-payment gzip KB; first-load ratio = their first-load / our first file.',
]
const results = {
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, ${os.cpus().length} × ${os.cpus()[0]?.model?.trim()}, Node ${process.version}`,
  bundler,
  notes: notes.join(' '),
  // (lists as strings, not arrays: keeps JSON.stringify's output identical to biome's formatting)
  ours: ours.error
    ? { error: ours.error }
    : {
        ...ours,
        ...Object.fromEntries(
          ['first', 'full', 'every'].map((k) => [k, { ...ours[k], list: ours[k].list.join(', ') }]),
        ),
      },
  competitors: compRows.map((r) => ({
    name: r.app.outName ?? r.app.name,
    label: r.app.label,
    versions: r.versions,
    ...(r.error
      ? { error: r.error }
      : {
          full: r.full,
          firstLoad: r.initial,
          otherAssets: r.otherAssets,
          buildSeconds: r.seconds,
        }),
  })),
  table: md,
  failures: failures.join('\n'),
}
mkdirSync(outRoot, { recursive: true })
writeFileSync(join(outRoot, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)

console.log(
  `\nBundle size: <paysession-checkout> vs. "connect a wallet and pay 10 USDC" with other SDKs\n`,
)
console.log(md)
if (failures.length) console.log(`\n${failures.map((f) => `- ${f}`).join('\n')}`)
console.log(`\n${notes.join('\n')}`)
console.log(
  `Written: ${relative(repo, join(outRoot, 'results.json'))} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
)
