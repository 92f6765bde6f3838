import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { axeViolations } from '../../scripts/axe.mjs'
import { serveStatic } from '../../scripts/serve-static.mjs'

// The built site (npm run build:docs) as a static host serves it, under a path of its own.
const dist = fileURLToPath(new URL('../.vitepress/dist/', import.meta.url))
const base = '/some/sub/path/'
let site: Awaited<ReturnType<typeof serveStatic>>

test.beforeAll(async () => {
  site = await serveStatic({ folder: dist, base })
})
test.afterAll(() => site.close())

/** Page URL without its hash: what a crawl visits once. */
const pageOf = (url: URL) => `${url.origin}${url.pathname}`

/** The links of a built page, resolved against its URL (the site's HTML is prerendered). */
function linksOf(html: string, url: string) {
  return [...html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map(
    ([, href]) => new URL(href!.replaceAll('&amp;', '&'), url),
  )
}

test('every internal link of every page works under a sub-path', async ({ request }) => {
  const problems: string[] = []
  const start = `${site.url}index.html`
  const queue = [start]
  const html = new Map<string, string>()
  const anchors: { target: string; id: string; from: string }[] = []
  const files = new Map<string, string>()
  while (queue.length) {
    const url = queue.shift()!
    const response = await request.get(url)
    if (!response.ok()) {
      problems.push(`${url} answers ${response.status()}`)
      continue
    }
    html.set(url, await response.text())
    for (const link of linksOf(html.get(url)!, url)) {
      if (link.origin !== site.origin) continue
      if (!link.pathname.startsWith(base)) {
        problems.push(`${url}: ${link.href} leaves the site's path`)
        continue
      }
      const target = pageOf(link)
      if (link.hash.length > 1) {
        anchors.push({ target, id: decodeURIComponent(link.hash.slice(1)), from: url })
      }
      if (!target.endsWith('.html') || target.includes('/playground/')) files.set(target, url)
      else if (!html.has(target) && !queue.includes(target)) queue.push(target)
    }
  }
  for (const [target, from] of files) {
    const response = await request.get(target)
    if (!response.ok()) problems.push(`${from}: ${target} answers ${response.status()}`)
  }
  for (const { target, id, from } of anchors) {
    if (!html.get(target)?.includes(`id="${id}"`)) problems.push(`${from}: no #${id} in ${target}`)
  }
  console.log(`site: ${html.size} pages, ${anchors.length} links to headings, ${files.size} files`)
  expect(problems).toEqual([])
  expect(html.size).toBeGreaterThan(20)
})

// One page of each kind: the home page, a guide, the contract's tables, a generated reference.
for (const path of [
  'index.html',
  'script-tag.html',
  'service.html',
  'reference/core/registry.html',
]) {
  test(`${path} loads every resource under the sub-path and is axe-clean`, async ({ page }) => {
    const problems: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
    })
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.origin === site.origin && !url.pathname.startsWith(base)) problems.push(url.href)
    })
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${site.url}${path}`)
    await expect(page.locator('.VPContent')).toBeVisible()
    await page.waitForLoadState('networkidle')
    const violations = await axeViolations(page, undefined, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
    })
    for (const violation of violations) {
      problems.push(`axe ${violation.id} (${violation.nodes.length}): ${violation.help}`)
    }
    expect(problems).toEqual([])
  })
}

test('the client-side router, the search and the playground stay under the sub-path', async ({
  page,
}) => {
  await page.goto(`${site.url}index.html`)
  await page.getByRole('link', { name: 'The service contract' }).first().click()
  await expect(page).toHaveURL(`${site.url}service.html`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/The Payment Session Service/)

  await page
    .getByRole('button', { name: /search/i })
    .first()
    .click()
  await page.getByPlaceholder(/search/i).fill('funding window')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`^${site.url}`))
  await expect(page.locator('.VPContent')).toBeVisible()

  await page.goto(`${site.url}playground.html`)
  await page.getByRole('link', { name: 'Open the playground' }).click()
  await expect(page).toHaveURL(`${site.url}playground/index.html`)
  await expect(page.getByRole('button', { name: /Buy/ }).first()).toBeVisible({ timeout: 60_000 })
})
