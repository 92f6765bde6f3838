// Packs every public package exactly as `pnpm publish` would (workspace ranges replaced) and
// checks each tarball holds what a consumer needs and nothing else: package.json, README.md, the
// LICENSE, every file the manifest points at, source maps whose sources are shipped (or inlined),
// a custom-elements.json that names shipped files, ranges that dedupe, engines, repository,
// homepage, and optional peers loaded only by the entries that need them. Run after the build; `--keep <dir>` leaves the tarballs there (the registry round trip
// publishes them).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const license = readFileSync(join(root, 'LICENSE'), 'utf8')

/** The workspace packages that are published: packages/* without `"private": true`. */
export function publicPackages() {
  return readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
}

/** `pnpm pack` of one package into `dest`; returns the tarball's path. */
export function pack(dir, dest) {
  const out = execFileSync(
    'node',
    [join(root, 'scripts/pnpm.mjs'), 'pack', '--pack-destination', dest, '--json'],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return JSON.parse(out.slice(out.indexOf('{'))).filename
}

function listFiles(dir, prefix = '') {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory()
      ? listFiles(path, `${prefix}${name}/`)
      : [`${prefix}${name}`]
  })
}

const targets = (value) =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(targets)
      : []

/**
 * The optional peers each entry may load (statically, in its code or its declarations): a
 * consumer who imports another entry need not install them. An entry not named loads none.
 */
export const optionalPeersOf = {
  '@paysession/checkout': {
    './react': ['react'],
    './vue': ['vue'],
    './svelte': ['svelte'],
    './solid': ['solid-js'],
    './angular': ['@angular/core'],
  },
  '@paysession/server': {
    './relay': ['viem'],
    './x402': ['viem', '@x402/core'],
    './postgres': ['postgres'],
    './redis': ['ioredis'],
  },
}

const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/** The bare packages a shipped file reaches through its relative static imports. */
function reachedPackages(base, has, entry) {
  const seen = new Set()
  const reached = new Set()
  const visit = (file) => {
    if (seen.has(file) || !has(file)) return
    seen.add(file)
    const text = readFileSync(join(base, file), 'utf8')
    for (const [, specifier] of text.matchAll(
      /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"\s]+)['"]|import\s*['"]([^'"\s]+)['"]/gm,
    )) {
      if (!specifier) continue
      if (specifier.startsWith('.')) {
        const next = posix.normalize(posix.join(posix.dirname(file), specifier))
        visit(file.endsWith('.d.ts') ? next.replace(/\.js$/, '.d.ts') : next)
      } else if (!specifier.startsWith('node:')) reached.add(packageOf(specifier))
    }
  }
  visit(posix.normalize(entry.replace(/^\.\//, '')))
  return reached
}

/** Every problem of one unpacked tarball (`dir` holds its `package/` folder). */
export function checkTarball(dir) {
  const base = join(dir, 'package')
  const files = new Set(listFiles(base))
  const manifest = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'))
  const problems = []
  const has = (path) => files.has(posix.normalize(path.replace(/^\.\//, '')))

  for (const required of ['package.json', 'README.md', 'LICENSE'])
    if (!files.has(required)) problems.push(`missing ${required}`)
  if (files.has('LICENSE') && readFileSync(join(base, 'LICENSE'), 'utf8') !== license)
    problems.push('LICENSE differs from the repository LICENSE')
  for (const file of files)
    if (
      /(^|\/)(test|tests|__tests__)\/|\.test\.[cm]?[jt]sx?$|\.tsbuildinfo$|^node_modules\//.test(
        file,
      )
    )
      problems.push(`ships a file no consumer needs: ${file}`)

  for (const field of ['license', 'repository', 'homepage', 'engines'])
    if (!manifest[field]) problems.push(`no "${field}"`)
  const entryPoints = [
    ...targets(manifest.exports),
    ...targets(manifest.main),
    ...targets(manifest.types),
    ...targets(manifest.typesVersions),
    ...targets(manifest.bin),
    ...targets(manifest.customElements),
  ].filter((path) => !path.includes('*'))
  for (const path of entryPoints) if (!has(path)) problems.push(`points at a missing file: ${path}`)

  const optional = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
    (name) => manifest.peerDependenciesMeta[name].optional,
  )
  for (const [subpath, target] of Object.entries(
    typeof manifest.exports === 'object' ? manifest.exports : {},
  )) {
    const allowed = optionalPeersOf[manifest.name]?.[subpath] ?? []
    for (const file of targets(target).filter((path) => /\.(m?js|d\.ts)$/.test(path)))
      for (const name of reachedPackages(base, has, file))
        if (optional.includes(name) && !allowed.includes(name))
          problems.push(`${subpath} loads the optional peer ${name} (${file})`)
  }

  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:')) problems.push(`${name}: unreplaced ${range}`)
    else if (/^\d/.test(range)) problems.push(`${name}: pinned to ${range}, which cannot dedupe`)
  }

  for (const file of files) {
    if (!file.endsWith('.map')) continue
    const map = JSON.parse(readFileSync(join(base, file), 'utf8'))
    map.sources.forEach((source, i) => {
      const resolved = posix.join(posix.dirname(file), map.sourceRoot ?? '', source)
      if (!files.has(resolved) && typeof map.sourcesContent?.[i] !== 'string')
        problems.push(`${file}: source ${source} is neither shipped nor inlined`)
    })
  }

  // The script-tag build: only this version's immutable folder, every file in its sri.json.
  const cdn = [...files].filter((file) => file.startsWith('dist/cdn/'))
  if (cdn.length > 0) {
    const folder = `dist/cdn/${manifest.version}/`
    for (const file of cdn)
      if (!file.startsWith(folder)) problems.push(`${file} is outside ${folder}`)
    const sri = files.has(`${folder}sri.json`)
      ? JSON.parse(readFileSync(join(base, folder, 'sri.json'), 'utf8'))
      : {}
    for (const file of cdn.filter((f) => f.endsWith('.js'))) {
      const hash = createHash('sha384')
        .update(readFileSync(join(base, file)))
        .digest('base64')
      if (sri[file.slice(folder.length)] !== `sha384-${hash}`)
        problems.push(`${folder}sri.json has no correct hash for ${file}`)
    }
  }

  if (manifest.customElements) {
    const cem = JSON.parse(readFileSync(join(base, manifest.customElements), 'utf8'))
    const paths = new Set()
    const walk = (node) => {
      if (Array.isArray(node)) return node.forEach(walk)
      if (!node || typeof node !== 'object') return
      for (const [key, value] of Object.entries(node))
        if ((key === 'path' || key === 'module') && typeof value === 'string') paths.add(value)
        else walk(value)
    }
    walk(cem)
    for (const path of paths)
      if (!has(path)) problems.push(`custom-elements.json names a missing file: ${path}`)
  }
  return { manifest, files: [...files].sort(), problems }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const keep = process.argv.indexOf('--keep')
  const dest = keep > 0 ? process.argv[keep + 1] : mkdtempSync(join(tmpdir(), 'paysession-pack-'))
  let failed = false
  for (const { dir } of publicPackages()) {
    const tarball = pack(dir, dest)
    const unpacked = mkdtempSync(join(tmpdir(), 'paysession-unpack-'))
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked])
    const { manifest, files, problems } = checkTarball(unpacked)
    rmSync(unpacked, { recursive: true, force: true })
    const folders = [...new Set(files.map((file) => file.split('/').slice(0, 2).join('/')))]
    console.log(
      `${manifest.name}@${manifest.version}: ${files.length} files (${folders.join(', ')})`,
    )
    for (const problem of problems) console.error(`  ✗ ${problem}`)
    failed ||= problems.length > 0
  }
  if (keep < 0) rmSync(dest, { recursive: true, force: true })
  if (failed) process.exit(1)
  console.log('✓ every tarball holds what a consumer needs')
}
