// The API reference: TypeDoc (markdown) over every public subpath of every published package,
// read from its package.json `exports`, so the reference follows the packages as they change.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, OptionDefaults } from 'typedoc'
import { anchorsOf } from '../../scripts/check-links.mjs'

const blockTags = OptionDefaults.blockTags

const repo = fileURLToPath(new URL('../../', import.meta.url))
const out = fileURLToPath(new URL('../reference/', import.meta.url))
export const packages = ['checkout', 'core', 'server', 'protocol', 'sandbox']

/** The source file behind each `exports` entry that has types (`./dist/x.d.ts` → `src/x.ts`). */
async function entryPoints(name) {
  const manifest = JSON.parse(await readFile(`${repo}packages/${name}/package.json`, 'utf8'))
  const files = []
  for (const target of Object.values(manifest.exports)) {
    const types = typeof target === 'string' ? target : (target.types ?? target.import?.types)
    if (typeof types !== 'string' || !types.endsWith('.d.ts')) continue
    files.push(
      `${repo}packages/${name}/${types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')}`,
    )
  }
  return files
}

export async function buildReference() {
  await rm(out, { recursive: true, force: true })
  for (const name of packages) {
    const app = await Application.bootstrapWithPlugins({
      entryPoints: await entryPoints(name),
      tsconfig: `${repo}packages/${name}/tsconfig.json`,
      plugin: ['typedoc-plugin-markdown'],
      out: `${out}${name}`,
      name: `@paysession/${name}`,
      readme: 'none',
      entryFileName: 'index.md',
      outputFileStrategy: 'modules',
      // The custom-elements manifest's tags, which TypeDoc does not know.
      blockTags: [
        ...blockTags,
        '@cssprop',
        '@csspart',
        '@event',
        '@fires',
        '@slot',
        '@attr',
        '@attribute',
        '@summary',
        '@tag',
        '@property',
      ],
      hidePageHeader: true,
      hideBreadcrumbs: true,
      excludePrivate: true,
      excludeInternal: true,
      excludeExternals: true,
      githubPages: false,
      disableSources: true,
      skipErrorChecking: true,
      logLevel: 'Warn',
      validation: { notExported: false, invalidLink: false, unusedMergeModuleWith: false },
    })
    const project = await app.convert()
    if (!project) throw new Error(`TypeDoc could not read @paysession/${name}`)
    await app.generateOutputs(project)
  }
  await fixAnchors()
}

/**
 * The markdown plugin links a name that is both a type and a value to `#name-1`, a heading it
 * does not write when it merges them, on its own page or another: point such links at the
 * heading that exists.
 */
async function fixAnchors() {
  const files = (await readdir(out, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
  const texts = new Map(await Promise.all(files.map(async (f) => [f, await readFile(f, 'utf8')])))
  const anchors = new Map([...texts].map(([f, text]) => [f, anchorsOf(text)]))
  for (const [file, text] of texts) {
    const fixed = text.replace(/\]\(([\w./-]*)#([\w-]+)-(\d+)\)/g, (link, page, slug, n) => {
      const there = anchors.get(page ? resolve(dirname(file), page) : file)
      return !there || there.has(`${slug}-${n}`) || !there.has(slug) ? link : `](${page}#${slug})`
    })
    if (fixed !== text) await writeFile(file, fixed)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await buildReference()
