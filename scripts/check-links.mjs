// Every relative link in the repository's tracked Markdown, HTML and TypeScript files must stay
// inside the repository and reach a tracked file, and a `#anchor` into Markdown must name one
// of its headings (GitHub's slugs, which the documentation site uses too).
//   node scripts/check-links.mjs     prints each broken link, exits 1 if there is one
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(heading) {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a Markdown text: its headings (repeats get -1, -2 …) and explicit ids. */
export function anchorsOf(markdown) {
  const anchors = new Set()
  const seen = new Map()
  for (const [, heading] of stripFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const slug = githubSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count ? `${slug}-${count}` : slug)
  }
  for (const [, id] of markdown.matchAll(/\bid="([^"]+)"/g)) anchors.add(id)
  return anchors
}

/** Markdown without fenced code blocks, so examples are not read as headings or links. */
const stripFences = (markdown) =>
  markdown.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, '')

/** …and without inline code. */
const stripCode = (markdown) => stripFences(markdown).replace(/`[^`\n]*`/g, '')

/** The links a file holds: Markdown links and images, and HTML href/src attributes. */
export function linksOf(text, kind) {
  const body = kind === 'md' ? stripCode(text) : text
  const links = []
  const markdownLink = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
  // In TypeScript, only comments hold prose with links.
  const prose = kind === 'ts' ? commentsOf(text) : body
  if (kind === 'md' || kind === 'ts') {
    for (const [, href] of prose.matchAll(markdownLink)) links.push(href)
  }
  if (kind === 'md' || kind === 'html') {
    for (const [, href] of body.matchAll(/\b(?:href|src)="([^"]*)"/g)) links.push(href)
  }
  // A path in inline code is a reference too when it climbs out of its folder.
  if (kind === 'md') {
    for (const [, path] of stripFences(text).matchAll(/`(\.\.\/[\w./#-]+)`/g)) links.push(path)
  }
  return links
}

/** The comment lines of a TypeScript file (line comments and JSDoc lines). */
function commentsOf(text) {
  return text
    .split('\n')
    .filter((line) => /^\s*(?:\/\/|\/?\*)/.test(line))
    .join('\n')
}

// Folders the documentation build writes (docs/.vitepress/build.mjs): the hosted demo as the
// site's playground and the generated API reference.
const generated = ['docs/playground/', 'docs/reference/']

const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

/** Broken relative links of the tracked files: `{ file, link, problem }[]`. */
export function checkLinks({ cwd = root } = {}) {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
  const files = new Set(tracked)
  const folders = new Set(tracked.flatMap((file) => ancestors(file)))
  const anchorCache = new Map()
  const anchors = (file) => {
    if (!anchorCache.has(file))
      anchorCache.set(file, anchorsOf(readFileSync(join(cwd, file), 'utf8')))
    return anchorCache.get(file)
  }
  const problems = []
  for (const file of tracked) {
    const kind = /\.md$/.test(file)
      ? 'md'
      : /\.html$/.test(file)
        ? 'html'
        : /\.(?:ts|tsx|mts)$/.test(file)
          ? 'ts'
          : undefined
    if (!kind) continue
    const text = readFileSync(join(cwd, file), 'utf8')
    for (const link of linksOf(text, kind)) {
      // Absolute URLs, root paths (a server's routes) and template placeholders are not files.
      if (!link || external.test(link) || link.startsWith('/') || /[${}]/.test(link)) continue
      const [path = '', anchor] = link.split('#')
      const target = path ? posix.normalize(posix.join(posix.dirname(file), decodeURI(path))) : file
      if (generated.some((folder) => target.startsWith(folder))) continue
      if (target === '..' || target.startsWith('../')) {
        problems.push({ file, link, problem: 'leaves the repository' })
        continue
      }
      const clean = target.replace(/\/$/, '')
      // Vite copies a package's public/ folder into its build: an entry page may name those files.
      const fromPublic = kind === 'html' && publicFile(files, file, clean)
      if (!files.has(clean) && !folders.has(clean) && !fromPublic) {
        problems.push({ file, link, problem: 'no such file in the repository' })
        continue
      }
      if (anchor && clean.endsWith('.md') && !anchors(clean).has(anchor)) {
        problems.push({ file, link, problem: `no heading #${anchor} in ${clean}` })
      }
    }
  }
  return problems
}

function publicFile(files, file, target) {
  const name = posix.basename(target)
  return ancestors(file).some((dir) => files.has(`${dir}/public/${name}`))
}

function ancestors(file) {
  const out = []
  for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) out.push(dir)
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkLinks({
    cwd: dirname(fileURLToPath(import.meta.url)).replace(/scripts$/, ''),
  })
  for (const { file, link, problem } of problems) console.log(`${file}: ${link}: ${problem}`)
  process.exit(problems.length ? 1 : 0)
}
