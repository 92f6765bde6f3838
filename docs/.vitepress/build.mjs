// npm run build:docs: the API reference (TypeDoc), the site (VitePress), the hosted demo as the
// playground, then every URL made relative so any static host serves the folder under any path.
// VitePress wants an absolute `base`, so the site is built under a placeholder base that this
// script replaces: by a relative path in HTML and CSS, and by the root's path computed in the
// browser (from the page's own location) in JavaScript.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vitepress'
import { buildReference } from './reference.mjs'

const docs = fileURLToPath(new URL('..', import.meta.url))
const repo = join(docs, '..')
const dist = join(docs, '.vitepress/dist')
const placeholder = '/__paysession_base__/'
const runtimeBase = 'window.__paysession_base__'

async function files(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The relative path from a file in dist to the site's root: '', '../', '../../' … */
const toRoot = (file) => {
  const depth = relative(dist, file).split(sep).length - 1
  return '../'.repeat(depth)
}

function rewriteHtml(text, file) {
  const prefix = toRoot(file) || './'
  return (
    text
      // Attributes (links, scripts, styles, preloads): relative to this page.
      .replaceAll(`="${placeholder}`, `="${prefix}`)
      // The site data VitePress inlines as a JSON string: the root's path, computed at load.
      .replaceAll(placeholder, `"+${runtimeBase}+"`)
      // First in <head>: the root's absolute path, from where this page is served.
      .replace(
        '<head>',
        `<head><script>${runtimeBase}=new URL(${JSON.stringify(prefix)},location.href).pathname</script>`,
      )
  )
}

function rewriteJs(text, file) {
  // The search index is one JSON text in a string: a template literal, or a single-quoted string
  // when the text holds a backtick. Either way the base is spliced in at load.
  if (posix.basename(file).startsWith('@localSearchIndex')) {
    if (text.includes('=`{')) return text.replaceAll(`"${placeholder}`, `"\${${runtimeBase}}`)
    if (text.includes("='{")) return text.replaceAll(`"${placeholder}`, `"'+${runtimeBase}+'`)
    throw new Error(`${file}: the search index is no longer a JSON text in a string`)
  }
  // Elsewhere the placeholder starts a string literal: the base, then the rest of the string.
  return text.replaceAll(`"${placeholder}`, `(${runtimeBase})+"`)
}

const rewriteCss = (text, file) => text.replaceAll(placeholder, toRoot(file))

export async function buildDocs() {
  await buildReference()
  await build(docs, { base: placeholder })

  const hosted = join(repo, 'apps/demo/dist/hosted')
  if (!existsSync(join(hosted, 'index.html'))) {
    execFileSync('node', ['scripts/pnpm.mjs', '--filter', '@paysession/demo', 'build:hosted'], {
      cwd: repo,
      stdio: 'inherit',
    })
  }
  await cp(hosted, join(dist, 'playground'), { recursive: true })

  for (const file of await files(dist)) {
    if (file.startsWith(join(dist, 'playground', sep))) continue
    const rewrite = file.endsWith('.html')
      ? rewriteHtml
      : file.endsWith('.js')
        ? rewriteJs
        : file.endsWith('.css')
          ? rewriteCss
          : undefined
    if (!rewrite) continue
    const text = await readFile(file, 'utf8')
    if (!text.includes(placeholder)) continue
    const out = rewrite(text, file)
    if (out.includes(placeholder)) throw new Error(`${file}: an absolute URL is left`)
    await writeFile(file, out)
  }
  console.log(`docs: ${relative(repo, dist)} (relative URLs; the playground under playground/)`)
}

if (import.meta.url === `file://${process.argv[1]}`) await buildDocs()
