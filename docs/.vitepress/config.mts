import { existsSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type DefaultTheme, defineConfig, type MarkdownRenderer } from 'vitepress'
import { githubSlug } from '../../scripts/check-links.mjs'

const docs = fileURLToPath(new URL('..', import.meta.url))
const repo = join(docs, '..')
const repoUrl = 'https://github.com/paysession/paysession'

/** Files outside docs/ that are pages of the site too (each page includes its file). */
const alsoPages: Record<string, string> = {
  'packages/sandbox/README.md': 'sandbox.md',
  'bench/README.md': 'benchmarks.md',
  'CONTRIBUTING.md': 'contributing.md',
}

const has = (page: string) => existsSync(join(docs, page))
const pages = (folder: string) =>
  has(folder)
    ? readdirSync(join(docs, folder))
        .filter((file) => file.endsWith('.md'))
        .sort()
    : []

/**
 * A link in a page is relative to its Markdown file, so it works on GitHub. On the site, a link
 * to a repository file outside docs/ goes to that file on GitHub, or to its page here.
 */
function repoLinks(md: MarkdownRenderer) {
  md.core.ruler.after('inline', 'paysession-repo-links', (state) => {
    const page = (state.env as { relativePath?: string }).relativePath ?? 'index.md'
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue
        const href = token.attrGet('href')
        if (!href) continue
        const target = siteTarget(page, href)
        if (target !== undefined) token.attrSet('href', target)
      }
    }
  })
}

function siteTarget(page: string, href: string): string | undefined {
  const ownBlob = `${repoUrl}/blob/main/`
  // The repository file the page's Markdown comes from (a page may include a file elsewhere).
  const source = Object.entries(alsoPages).find(([, to]) => to === page)?.[0] ?? `docs/${page}`
  let path: string
  let hash: string
  if (href.startsWith(ownBlob)) {
    ;[path = '', hash = ''] = href.slice(ownBlob.length).split('#')
  } else if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) {
    return undefined
  } else {
    const [file = '', anchor = ''] = href.split('#')
    path = posix.normalize(posix.join(posix.dirname(source), file))
    hash = anchor
  }
  const suffix = hash ? `#${hash}` : ''
  const here = posix.dirname(`docs/${page}`)
  if (path.startsWith('docs/')) return `${posix.relative(here, path)}${suffix}`
  const alsoPage = alsoPages[path]
  if (alsoPage) return `${posix.relative(here, `docs/${alsoPage}`)}${suffix}`
  const folder = existsSync(join(repo, path)) && !/\.[a-z0-9]+$/i.test(path)
  return `${repoUrl}/${folder ? 'tree' : 'blob'}/main/${path.replace(/\/$/, '')}${suffix}`
}

function referenceItems(): DefaultTheme.SidebarItem[] {
  return ['checkout', 'core', 'server', 'protocol', 'sandbox']
    .filter((name) => has(`reference/${name}/index.md`))
    .map((name) => {
      const modules = pages(`reference/${name}`).filter((file) => file !== 'index.md')
      const items = modules.map((file) => {
        const sub = file.replace(/\.md$/, '')
        const text = sub === 'index-1' ? `@paysession/${name}` : `@paysession/${name}/${sub}`
        return { text, link: `/reference/${name}/${sub}` }
      })
      // Not collapsible: the theme's toggle nests a button in a button (axe: nested-interactive).
      return items.length
        ? { text: `@paysession/${name}`, items }
        : { text: `@paysession/${name}`, link: `/reference/${name}/` }
    })
}

const optional = (page: string, text: string) => (has(page) ? [{ text, link: `/${page}` }] : [])

export default defineConfig({
  title: 'paysession',
  description: 'The stablecoin checkout for the Payment Session Service',
  lang: 'en',
  // build.mjs builds under a placeholder base and makes every URL relative afterwards.
  base: process.env.PAYSESSION_DOCS_BASE ?? '/',
  cleanUrls: false,
  ignoreDeadLinks: 'localhostLinks',
  srcExclude: [
    'test/**',
    'test-results/**',
    'playwright-report/**',
    '.examples/**',
    'node_modules/**',
  ],
  markdown: {
    // GitHub's anchors, so a link to a heading works on GitHub and here alike.
    anchor: { slugify: githubSlug },
    // Code colours at 4.5:1 or more on the block's background (the default themes fall short).
    theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
    headers: { slugify: githubSlug },
    config: (md) => md.use(repoLinks),
  },
  vite: {
    // The README's and guides' pictures live beside the packages they show.
    server: { fs: { allow: [repo] } },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'Service', link: '/service' },
      { text: 'Reference', link: '/reference' },
      { text: 'Playground', link: '/playground' },
    ],
    sidebar: [
      {
        text: 'Guides',
        items: [
          { text: 'Getting started', link: '/getting-started' },
          { text: 'One script tag', link: '/script-tag' },
          { text: 'Single-page apps', link: '/spa' },
          { text: "The merchant's server", link: '/server' },
          { text: 'Webhooks', link: '/server#webhook-snippet' },
          { text: 'Gasless payments', link: '/gasless' },
          { text: 'Payments from software (x402)', link: '/x402' },
          { text: 'Wallets and payment paths', link: '/payment-paths' },
          ...optional('wallets', 'Wallets, tested'),
          ...optional('runtimes', 'Runtimes'),
          { text: 'The sandbox', link: '/sandbox' },
          { text: 'The demo', link: '/demo' },
          { text: 'Playground', link: '/playground' },
        ],
      },
      ...(pages('frameworks').length
        ? [
            {
              text: 'Frameworks',
              items: pages('frameworks').map((file) => ({
                text: file.replace(/\.md$/, ''),
                link: `/frameworks/${file.replace(/\.md$/, '')}`,
              })),
            },
          ]
        : []),
      {
        text: 'Reference',
        items: [
          { text: 'The service contract', link: '/service' },
          { text: '&lt;paysession-checkout&gt;', link: '/checkout' },
          { text: '@paysession/core', link: '/core' },
          { text: 'Error codes', link: '/errors' },
          { text: 'Security', link: '/security' },
          { text: 'Architecture', link: '/architecture' },
          { text: 'API reference', link: '/reference', items: referenceItems() },
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Contributing', link: '/contributing' },
        ],
      },
    ],
    search: { provider: 'local' },
    outline: 'deep',
  },
})
