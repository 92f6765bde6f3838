// The hosted demo (apps/demo/dist/hosted): what a visitor downloads and how soon the shop is
// usable, measured in Chromium against the built folder on a plain static file server.
//
// Sizes (gzip -9 of the built files, as a static host would serve them compressed), split by
// the Vite manifest into the first load (the page, its entry chunk, the styles), the lazy
// service (the in-page service, @paysession/server, viem, the Sandbox Wallet, the setup a first
// visit replays) and the lazy chain
// (ethereumjs), plus the checkout's script-tag file the checkout page loads.
// Times (N fresh browser contexts, empty cache and IndexedDB): from navigation start to the
// shop's "Buy" buttons (usable: a click waits for the service if it is not up yet), and to the
// chain, the service and the merchant running (first visit: the test tokens deployed); then
// a return visit after one payment (the chain replays its saved journal). Twice: on the local
// server as it is, and throttled as a slow mobile connection (150 ms round trip, 1.6 Mbit/s
// down), the server compressing and caching as a static host does (GitHub Pages: gzip, 10 min).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { serveStatic } from '../scripts/serve-static.mjs'
import { smoke } from './lib/ports.ts'
import { percentile, printTable } from './lib/sandbox-process.ts'

const RUNS = Number(process.env.BENCH_HOSTED_RUNS ?? (smoke ? 1 : 10))
const RETURN_VISITS = smoke ? 1 : 3
const demo = fileURLToPath(new URL('../apps/demo', import.meta.url))
const folder = join(demo, 'dist', 'hosted')
execFileSync(join('node_modules', '.bin', 'vite'), ['build', '--config', 'vite.hosted.config.ts'], {
  cwd: demo,
  stdio: 'inherit',
})

// ---- Sizes -------------------------------------------------------------------------------------

type Chunk = { file: string; imports?: string[]; css?: string[] }
const manifest = JSON.parse(readFileSync(join(folder, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>
const closure = (key: string, seen = new Set<string>()): Set<string> => {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const next of manifest[key]?.imports ?? []) closure(next, seen)
  return seen
}
const files = (keys: Iterable<string>) => [...keys].map((k) => manifest[k]!.file)
const gzip = (file: string) => gzipSync(readFileSync(join(folder, file)), { level: 9 }).length
const kb = (bytes: number) => (bytes / 1024).toFixed(1)
const sum = (list: string[]) => list.reduce((total, file) => total + gzip(file), 0)

const entry = closure('index.html')
const chainKey = Object.keys(manifest).find((k) => manifest[k]!.file.includes('/chain-'))!
const worldKey = 'world.ts'
const first = ['index.html', ...files(entry), 'assets/styles.css', 'assets/favicon.svg']
const service = [
  ...files([...closure(worldKey)].filter((k) => !entry.has(k) && k !== chainKey)),
  ...Object.keys(manifest)
    .filter((k) => !entry.has(k) && k !== chainKey && !closure(worldKey).has(k))
    .map((k) => manifest[k]!.file),
  'assets/sandbox-wallet.js',
  // Fetched on a first visit only: the sandbox's setup, made by the build (hosted/setupJournal.ts).
  'assets/setup-journal.json',
]
const chain = [manifest[chainKey]!.file]
const version = JSON.parse(
  readFileSync(join(demo, 'node_modules', '@paysession', 'checkout', 'package.json'), 'utf8'),
).version
const checkout = [`cdn/${version}/paysession-checkout.js`]
printTable('Hosted demo, gzip -9 KB', [
  {
    part: 'first load (page, entry chunk, styles)',
    files: first.length,
    'gzip KB': kb(sum(first)),
  },
  {
    part: 'lazy: service, merchant, viem, wallet',
    files: service.length,
    'gzip KB': kb(sum(service)),
  },
  { part: 'lazy: chain (ethereumjs)', files: chain.length, 'gzip KB': kb(sum(chain)) },
  { part: 'checkout page: the script-tag first file', files: 1, 'gzip KB': kb(sum(checkout)) },
])

// ---- Times -------------------------------------------------------------------------------------

// Compressed and cacheable, as GitHub Pages serves it.
const server = await serveStatic({ folder, base: '/demo/', gzip: true })
const url = server.url
const browser = await chromium.launch(chromiumLaunchOptions)

/** Marks, in ms since navigation start, when the shop's buttons and the running world appear. */
async function marks(page: Page) {
  await page.waitForSelector('[data-world-status="ready"]', { timeout: 60_000 })
  return page.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks)
}

const watch = () => {
  const w = window as unknown as { __marks: Record<string, number> }
  w.__marks = {}
  new MutationObserver(() => {
    if (!w.__marks.shop && document.querySelector('form.shop button[name="product"]'))
      w.__marks.shop = performance.now()
    if (!w.__marks.ready && document.querySelector('[data-world-status="ready"]'))
      w.__marks.ready = performance.now()
  }).observe(document, { subtree: true, childList: true, attributes: true })
}

const step = (page: Page, steps: string[]) =>
  page.waitForFunction(
    (s) => s.includes((document.querySelector('paysession-checkout') as any)?.state?.step),
    steps,
    { polling: 50, timeout: 30_000 },
  )

/** Pays the open checkout with the Sandbox Wallet (auto-approve), in USDC. */
async function pay(page: Page) {
  const widget = page.locator('paysession-checkout')
  await page.waitForFunction(() => Boolean((window as any).__sandboxWallet))
  await widget.locator('[part~="button"]', { hasText: 'Pay ' }).click()
  await step(page, ['chooseWallet'])
  await widget.getByRole('dialog').getByRole('button', { name: 'Sandbox Wallet' }).click()
  await step(page, ['chooseToken'])
  await widget.getByRole('dialog').getByRole('button', { name: /^USDC/ }).click()
  await step(page, ['review'])
  await widget
    .getByRole('dialog')
    .getByRole('button', { name: /^Pay [\d$€]/ })
    .click()
  await step(page, ['paid'])
}

type Times = { shop: number[]; ready: number[]; back: number[] }
/** Slow mobile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (DevTools' "Fast 3G"). */
const slow = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 }

async function measure(runs: number, throttle: typeof slow | undefined): Promise<Times> {
  const times: Times = { shop: [], ready: [], back: [] }
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    if (throttle) {
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', throttle)
    }
    await page.addInitScript(watch)
    await page.goto(`${url}?wallet=autoapprove`)
    const m = await marks(page)
    times.shop.push(m.shop!)
    times.ready.push(m.ready!)
    if (i < RETURN_VISITS) {
      // A return visit with a paid order in it: the saved chain is replayed on load.
      await page.locator('li.product').first().getByRole('button', { name: 'Buy' }).click()
      await page.waitForURL(/#\/checkout\//)
      await pay(page)
      await page.goto(`${url}?wallet=autoapprove`)
      times.back.push((await marks(page)).ready!)
    }
    await context.close()
  }
  return times
}

let local: Times
let throttled: Times
try {
  local = await measure(RUNS, undefined)
  throttled = await measure(smoke ? 1 : Math.max(3, Math.round(RUNS / 2)), slow)
} finally {
  await browser.close()
  await server.close()
}
const row = (what: string, values: number[], goal = '–') => {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    what,
    goal,
    runs: values.length,
    p50: `${Math.round(percentile(sorted, 50))} ms`,
    p95: `${Math.round(percentile(sorted, 95))} ms`,
    max: `${Math.round(sorted[sorted.length - 1]!)} ms`,
  }
}
// The goals hold for the local rows (p50, on a quiet machine); the throttled rows are reported.
for (const [name, t, goals] of [
  ['local static server', local, { shop: '≤ 100 ms', ready: '≤ 1 s' }],
  ['slow mobile: 150 ms RTT, 1.6 Mbit/s, gzip', throttled, {}],
] as const)
  printTable(`Hosted demo in Chromium, from navigation start (${name})`, [
    row('shop usable (Buy buttons shown)', t.shop, 'shop' in goals ? goals.shop : undefined),
    row(
      'chain, service and merchant running (first visit)',
      t.ready,
      'ready' in goals ? goals.ready : undefined,
    ),
    row('running again on a return visit (journal replayed)', t.back),
  ])
