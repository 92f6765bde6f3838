import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { expect, test } from '@playwright/test'
import { buildWallet, walletFile } from '../../apps/demo/src/server/buildWallet.js'
import { blocksOf } from '../../scripts/check-examples.mjs'
import { serveStatic } from '../../scripts/serve-static.mjs'

// Every HTML block of the tracked Markdown, loaded in Chromium against the sandbox, reaches the
// Pay button. A snippet's placeholders become real: the CDN URL serves this build's script-tag
// folder, `integrity="sha384-…"` gets the file's hash from sri.json, an import map's `…` file
// names must match files the build writes, and the session is a real one. A snippet without the
// element or its script (a wallet, an attribute) gets the split build's script tag and an element.
const repo = fileURLToPath(new URL('../../', import.meta.url))
const version = JSON.parse(readFileSync(`${repo}packages/checkout/package.json`, 'utf8')).version
const cdn = `${repo}packages/checkout/dist/cdn/${version}/`
const sri: Record<string, string> = JSON.parse(readFileSync(`${cdn}sri.json`, 'utf8'))

const tracked = execFileSync('git', ['ls-files', '-z', '*.md'], { cwd: repo, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && !file.includes('CHANGELOG'))
const snippets = tracked.flatMap((file) =>
  blocksOf(readFileSync(join(repo, file), 'utf8'))
    .filter((block) => block.lang === 'html')
    .map((block) => ({ where: `${file}:${block.line}`, html: block.code })),
)

const folder = mkdtempSync(join(tmpdir(), 'docs-snippets-'))
let sandbox: Sandbox
let site: Awaited<ReturnType<typeof serveStatic>>

test.beforeAll(async () => {
  cpSync(cdn, join(folder, 'cdn'), { recursive: true })
  // The Sandbox Wallet as the demo serves it, built from apps/demo/wallet when stale.
  const demo = `${repo}apps/demo`
  await buildWallet(demo)
  copyFileSync(walletFile(demo), join(folder, 'sandbox-wallet.js'))
  sandbox = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  site = await serveStatic({ folder })
})
test.afterAll(async () => {
  await site?.close()
  await sandbox?.stop()
  rmSync(folder, { recursive: true, force: true })
})

/** A file of the build named by a snippet, `…` standing for any part of the name. */
function buildFiles(name: string) {
  const pattern = new RegExp(
    `^${name
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  )
  return Object.keys(sri).filter((file) => pattern.test(file))
}

const cdnUrl =
  /(?:https:\/\/cdn\.example\.com\/@paysession\/checkout@[^/]+\/dist\/cdn\/[^/]+\/|http:\/\/localhost:3000\/cdn\/)/g

/** The snippet with real URLs, hashes and session; problems it names, as sentences. */
function realize(html: string, session: { id: string; token: string }) {
  const problems: string[] = []
  let page = html
    .replace(cdnUrl, `${site.url}cdn/`)
    .replace(/(src=")(?:http:\/\/localhost:3000\/)?(sandbox-wallet\.js")/g, `$1${site.url}$2`)
    .replace(/session-id="[^"]*…[^"]*"/g, `session-id="${session.id}"`)
    .replace(/session-token="[^"]*…[^"]*"/g, `session-token="${session.token}"`)
    .replace(
      /api-base="(?:https:\/\/api\.example\.com|http:\/\/127\.0\.0\.1:4010|…)"/g,
      `api-base="${sandbox.apiUrl}"`,
    )
    .replaceAll('http://127.0.0.1:8545', sandbox.rpcUrl)
  // An import map: every named file must exist, "…every other file…" stands for the rest.
  page = page.replace(/<script type="importmap">([\s\S]*?)<\/script>/, (_, json: string) => {
    const map = JSON.parse(json) as { integrity: Record<string, string> }
    const integrity: Record<string, string> = {}
    let rest = false
    for (const key of Object.keys(map.integrity)) {
      if (!key.startsWith(`${site.url}cdn/`)) {
        rest = true
        continue
      }
      const files = buildFiles(key.slice(`${site.url}cdn/`.length))
      if (!files.length)
        problems.push(`the import map names ${key}, which the build does not write`)
      for (const file of files) integrity[`${site.url}cdn/${file}`] = sri[file]!
    }
    if (rest) {
      for (const file of Object.keys(sri)) {
        if (/^paysession-checkout(\.full)?\.js$/.test(file)) continue
        integrity[`${site.url}cdn/${file}`] ??= sri[file]!
      }
    }
    return `<script type="importmap">${JSON.stringify({ integrity })}</script>`
  })
  // integrity="sha384-…" on a script of the build: that file's hash.
  page = page.replace(/<script\b[^>]*>/g, (tag) => {
    const src = /src="([^"]+)"/.exec(tag)?.[1]
    if (!/integrity="sha384-…"/.test(tag) || !src) return tag
    const file = src.startsWith(`${site.url}cdn/`) ? src.slice(`${site.url}cdn/`.length) : ''
    if (!sri[file]) problems.push(`${src} has no hash in sri.json`)
    return tag.replace('sha384-…', sri[file] ?? '')
  })
  if (page.includes('…'))
    problems.push(
      `a placeholder is left: ${page.slice(page.indexOf('…') - 40, page.indexOf('…') + 10)}`,
    )
  if (!/src="[^"]*paysession-checkout(\.full)?\.js"/.test(page)) {
    page += `\n<script type="module" src="${site.url}cdn/paysession-checkout.js"></script>`
  }
  if (!page.includes('<paysession-checkout')) {
    page += `\n<paysession-checkout session-id="${session.id}" session-token="${session.token}" api-base="${sandbox.apiUrl}"></paysession-checkout>`
  }
  return { page, problems }
}

test('every HTML snippet of the docs is found', () => {
  console.log(`snippets: ${snippets.length} HTML blocks loaded in Chromium`)
  expect(snippets.length).toBeGreaterThan(5)
})

for (const [index, snippet] of snippets.entries()) {
  test(`${snippet.where} reaches the Pay button`, async ({ page }) => {
    const response = await fetch(`${sandbox.apiUrl}/payment-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', currency: 'USD' }),
    })
    const session = (await response.json()) as {
      paymentSessionId: string
      paymentSessionToken: string
    }
    const { page: html, problems } = realize(snippet.html, {
      id: session.paymentSessionId,
      token: session.paymentSessionToken,
    })
    expect(problems).toEqual([])
    writeFileSync(
      join(folder, `snippet-${index}.html`),
      `<!doctype html><html lang="en"><body>${html}</body></html>`,
    )
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('response', (answer) => {
      if (answer.status() >= 400) errors.push(`${answer.status()} ${answer.url()}`)
    })
    await page.goto(`${site.url}snippet-${index}.html`)
    await expect(
      page.locator('paysession-checkout').getByRole('button', { name: /^Pay .*10\.00/ }),
    ).toBeEnabled()
    expect(errors).toEqual([])
  })
}
