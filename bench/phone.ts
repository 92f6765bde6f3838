// Phone profile: how long a customer on a mid-range phone waits for the wallet, from clicking
// "Pay" to the wallet being asked, with this tree's script-tag build and the reference build
// (lib/reference.mjs) side by side in one run, on one demo, service and chain. Chromium with 4×
// CPU slowdown (CDP Emulation.setCPUThrottlingRate) and DevTools' "Fast 4G" network (CDP
// Network.emulateNetworkConditions): 165 ms round trip, 9 Mbit/s down, 1.5 Mbit/s up, both × 0.9,
// as DevTools defines the preset.
//
// Fair by construction: the two builds differ only in the folder their files come from. One
// static server holds both folders and serves them alike (gzip, cacheable, as a CDN serves a
// versioned folder); in every sample the page's /cdn/ requests are routed to one folder over the
// same throttled network, and the page's integrity hash is set to that build's. Each sample is a
// fresh browser context (an empty cache, a new order); after a warm-up of each, the builds take
// turns (ours first in one round, the reference first in the next), so a busy moment of the
// shared machine falls on both.
//
// Two waits, timed in the page (performance.now()):
// - page "Pay" → connect prompt: the dialog's code loads and runs, the customer picks the Sandbox
//   Wallet in the frame it is offered (clicked in the page), until the wallet gets
//   `eth_requestAccounts`;
// - review "Pay" → transaction prompt: the payment's checks (session, balance, capabilities)
//   until the wallet gets `eth_sendTransaction`.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { serveStatic } from '../scripts/serve-static.mjs'
import { newCheckout, startDemoProcess } from './lib/demo-process.ts'
import { freePorts, smoke } from './lib/ports.ts'
// @ts-expect-error: plain JavaScript, shared with size/run.mjs
import { referenceBuild, thisTreeBuild } from './lib/reference.mjs'
import { percentile, printTable } from './lib/sandbox-process.ts'

/** Samples of each build, after the warm-up. */
const SAMPLES = Number(process.env.BENCH_PHONE_RUNS ?? (smoke ? 1 : 20))
const WARMUP = Number(process.env.BENCH_PHONE_WARMUP ?? (smoke ? 0 : 2))
/** A customer's pause before each click (0: the bench clicks as soon as a button is there). */
const DWELL_MS = Number(process.env.BENCH_PHONE_DWELL_MS ?? 0)
const fast4g = {
  offline: false,
  latency: 60 * 2.75,
  downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
}
/** The demo's mug, as the button says it and as the review pays it (exact: the review also
 * offers "Pay without network fees"). */
const PAY = 'Pay $24.50'
const REVIEW_PAY = 'Pay 24.50 USDC'

type Build = { name: string; folder: string; integrity: string }
type Sample = { connect: number; transaction: number }

const reference = referenceBuild({ build: !smoke }) as {
  ref: string
  commit: string
  dir: string
  error?: string
}
// One static server for both builds: a folder of links to each build's dist/cdn/<version>.
const root = mkdtempSync(join(tmpdir(), 'paysession-bench-phone-'))
const builds: Build[] = [
  { name: 'this tree', dir: thisTreeBuild() },
  ...(reference.error ? [] : [{ name: 'reference', dir: reference.dir }]),
].map(({ name, dir }, i) => {
  symlinkSync(dir, join(root, `build-${i}`))
  const sri = JSON.parse(readFileSync(join(dir, 'sri.json'), 'utf8'))
  return { name, folder: `build-${i}`, integrity: sri['paysession-checkout.js'] as string }
})

const [demoPort, apiPort, chainPort] = await freePorts(3)
const demo = await startDemoProcess({ demo: demoPort!, api: apiPort!, chain: chainPort! })
const cdn = await serveStatic({ folder: root, gzip: true })
// The page is routed (its integrity hash set), and Chromium treats a page it did not fetch as
// public, refusing its requests to the loopback service and chain without these.
const browser = await chromium.launch({
  ...chromiumLaunchOptions,
  args: [
    ...chromiumLaunchOptions.args,
    '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
  ],
})

/** In the page: when "Pay" was clicked and when the wallet was asked for what. */
function watch() {
  const w = window as unknown as { __marks: Record<string, number>; pickWallet(): void }
  w.__marks = {}
  document.addEventListener(
    'click',
    (event) => {
      const button = event.composedPath()[0] as HTMLElement
      // PAY and REVIEW_PAY (an init script has no access to this module's constants).
      const text = button?.textContent?.trim()
      if (text === 'Pay $24.50' && !w.__marks.pay) {
        w.__marks.pay = performance.now()
        requestAnimationFrame(w.pickWallet)
      }
      if (text === 'Pay 24.50 USDC') w.__marks.reviewPay ??= performance.now()
    },
    true,
  )
  // The customer picks the Sandbox Wallet in the first frame it is offered: clicked here, in the
  // page, so that the bench's own reaction (a round trip to Playwright) is no part of the wait.
  // (A member, not a named function: the page gets this function's source, without tsx's helpers.)
  w.pickWallet = () => {
    const root = document.querySelector('paysession-checkout')?.shadowRoot
    const wallet = [...(root?.querySelectorAll('button') ?? [])].find((b) =>
      b.textContent?.includes('Sandbox Wallet'),
    )
    if (!wallet) return requestAnimationFrame(w.pickWallet)
    w.__marks.walletPicked = performance.now()
    wallet.click()
  }
  // The wallet's provider, wrapped before the page's code receives it (EIP-6963).
  window.addEventListener('eip6963:announceProvider', (event) => {
    const provider = (event as CustomEvent).detail?.provider
    if (!provider || provider.__benchWrapped) return
    const request = provider.request.bind(provider)
    provider.__benchWrapped = true
    provider.request = (args: { method: string }) => {
      w.__marks[args.method] ??= performance.now()
      return request(args)
    }
  })
}

/** One checkout paid with `build`'s files, in a fresh context of the phone profile. */
async function sample(browser: Browser, build: Build): Promise<Sample | undefined> {
  const context = await browser.newContext()
  try {
    await context.route(`${demo.url}/cdn/**`, (route) =>
      route.continue({
        url: `${cdn.origin}/${build.folder}/${new URL(route.request().url()).pathname.slice(5)}`,
      }),
    )
    await context.route(`${demo.url}/checkout/**`, async (route) => {
      // The page only: its live updates are a stream that must pass through untouched.
      if (route.request().resourceType() !== 'document') return route.continue()
      const response = await route.fetch()
      const body = (await response.text()).replace(
        /integrity="sha384-[^"]+"/g,
        `integrity="${build.integrity}"`,
      )
      await route.fulfill({ response, body })
    })
    const page = await context.newPage()
    if (process.env.BENCH_VERBOSE)
      page.on('console', (m) => console.log(build.name, m.type(), m.text()))
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', fast4g)
    await page.addInitScript(watch)
    try {
      return await pay(page, build)
    } catch (error) {
      // A payment that did not reach the wallet is reported with what the page showed, and the
      // run goes on: the table says how many failed, and the run fails.
      const shot = join(tmpdir(), `paysession-bench-phone-${Date.now()}.png`)
      await page.screenshot({ path: shot }).catch(() => {})
      const marks = await page.evaluate(() => (window as any).__marks).catch(() => undefined)
      console.error(
        `phone: a sample of ${build.name} failed (${(error as Error).message.split('\n')[0]}); marks ${JSON.stringify(marks)}, screenshot ${shot}`,
      )
      return undefined
    }
  } finally {
    await context.close()
  }
}

async function pay(page: Page, build: Build): Promise<Sample> {
  const widget = page.locator('paysession-checkout')
  const click = async (button: ReturnType<Page['locator']>) => {
    await button.waitFor()
    if (DWELL_MS) await page.waitForTimeout(DWELL_MS)
    await button.click()
  }
  await page.goto(`${demo.url}/checkout/${await newCheckout(demo.url)}?wallet=autoapprove`)
  await click(widget.getByRole('button', { name: PAY, exact: true }))
  await click(widget.getByRole('button', { name: /USDC/ }))
  await click(widget.getByRole('dialog').getByRole('button', { name: REVIEW_PAY, exact: true }))
  await page.waitForFunction(() => (window as any).__marks.eth_sendTransaction, null, {
    timeout: 60_000,
  })
  const marks = await page.evaluate(() => (window as any).__marks as Record<string, number>)
  if (process.env.BENCH_VERBOSE) {
    // What the page fetched (its files, the service, the chain) and when, from navigation.
    const files = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .map((e) => [
          e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 48),
          Math.round(e.startTime),
          Math.round(e.responseEnd),
        ]),
    )
    console.log(build.name, JSON.stringify({ marks, files }))
  }
  return {
    connect: marks.eth_requestAccounts! - marks.pay!,
    transaction: marks.eth_sendTransaction! - marks.reviewPay!,
  }
}

const times = new Map(builds.map((b) => [b.name, [] as Sample[]]))
const failed = new Map(builds.map((b) => [b.name, 0]))
try {
  for (let i = 0; i < WARMUP; i++) for (const build of builds) await sample(browser, build)
  for (let i = 0; i < SAMPLES; i++)
    for (const build of i % 2 ? [...builds].reverse() : builds) {
      const result = await sample(browser, build)
      if (result) times.get(build.name)!.push(result)
      else failed.set(build.name, failed.get(build.name)! + 1)
    }
} finally {
  await browser.close()
  await cdn.close()
  await demo.stop()
  rmSync(root, { recursive: true, force: true })
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
const median = (values: number[]) => percentile(sorted(values), 50)
/** A 95% interval of the ratio of medians: both sides resampled, 2,000 times. */
function ratioInterval(ours: number[], theirs: number[]) {
  const resample = (values: number[]) =>
    values.map(() => values[Math.floor(Math.random() * values.length)]!)
  const ratios = sorted(
    Array.from({ length: 2000 }, () => median(resample(ours)) / median(resample(theirs))),
  )
  return [percentile(ratios, 2.5), percentile(ratios, 97.5)] as const
}
const pct = (ratio: number) => `${(ratio * 100).toFixed(0)}%`
const ours = times.get('this tree')!
const ref = times.get('reference')
printTable(
  `Phone profile (Chromium, 4× CPU, Fast 4G): click Pay → wallet prompt, script-tag page, Sandbox Wallet; ${SAMPLES} samples of each build after ${WARMUP} warm-up, taking turns; reference: ${
    reference.error ?? `${reference.ref} (${reference.commit.slice(0, 7)})`
  }`,
  (['connect', 'transaction'] as const).map((what) => {
    const a = ours.map((s) => s[what])
    const b = ref?.map((s) => s[what])
    const [low, high] = b ? ratioInterval(a, b) : []
    return {
      wait:
        what === 'connect' ? 'page Pay → eth_requestAccounts' : 'review Pay → eth_sendTransaction',
      samples: b ? `${a.length} / ${b.length}` : a.length,
      failed: b
        ? `${failed.get('this tree')} / ${failed.get('reference')}`
        : failed.get('this tree')!,
      'ours p50 ms': Math.round(median(a)),
      'ours p90 ms': Math.round(percentile(sorted(a), 90)),
      'ref p50 ms': b ? Math.round(median(b)) : 'n/a',
      'ref p90 ms': b ? Math.round(percentile(sorted(b), 90)) : 'n/a',
      'ours / ref (p50)': b ? pct(median(a) / median(b)) : 'n/a',
      '95% interval': b ? `${pct(low!)}–${pct(high!)}` : 'n/a',
    }
  }),
)
if ([...failed.values()].some(Boolean)) process.exitCode = 1
