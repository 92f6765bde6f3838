// Phone profile: how long a customer on a mid-range phone waits for the wallet, from clicking
// "Pay" to the wallet being asked, with this tree's script-tag build and the reference build
// (bench/lib/reference.mjs) in the same run, on the same demo, service and chain. Chromium with
// 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate) and DevTools' "Fast 4G" network (CDP
// Network.emulateNetworkConditions): 165 ms round trip, 9 Mbit/s down, 1.5 Mbit/s up, both
// × 0.9, as DevTools defines the preset. Each run is a fresh browser context (empty cache); the
// two builds alternate run by run so that a busy machine slows both alike.
//
// Two waits, timed in the page (performance.now()):
// - page "Pay" → connect prompt: the dialog's code loads and runs, the customer picks the Sandbox
//   Wallet as soon as it is offered, until the wallet gets `eth_requestAccounts`;
// - review "Pay" → transaction prompt: the payment's checks (session, balance, capabilities)
//   until the wallet gets `eth_sendTransaction`.
// The reference build is served in place of ours by routing /cdn/ to a static server of its
// folder (and its integrity hash into the page).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from '@playwright/test'
import { serveStatic } from '../../scripts/serve-static.mjs'
import { chromiumLaunchOptions, type startDemoProcess } from './demo-process.ts'
import { smoke } from './ports.ts'
// @ts-expect-error: plain JavaScript, shared with size/run.mjs
import { referenceBuild } from './reference.mjs'
import { percentile, printTable } from './sandbox-process.ts'

const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? (smoke ? 1 : 7))
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

type Demo = Awaited<ReturnType<typeof startDemoProcess>>

/** Runs the phone profile on the running demo and prints its table. */
export async function phoneProfile(demo: Demo, newCheckout: () => Promise<string>): Promise<void> {
  // Its own browser: the reference's page is served by the route below, and Chromium treats a
  // page it did not fetch as public, refusing its requests to the loopback service and chain.
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    args: [
      ...chromiumLaunchOptions.args,
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
    ],
  })
  const reference = referenceBuild({ build: !smoke }) as {
    ref: string
    commit: string
    dir: string
    error?: string
  }

  /**
   * The reference build's files for /cdn/: each request goes on, over the throttled network, to a
   * static server of the reference's folder, uncompressed as the demo serves ours; its integrity
   * hash replaces ours in the page.
   */
  async function serveReference(context: BrowserContext, dir: string, origin: string) {
    const sri = JSON.parse(readFileSync(join(dir, 'sri.json'), 'utf8')) as Record<string, string>
    await context.route(`${demo.url}/cdn/**`, (route) =>
      route.continue({ url: `${origin}/${new URL(route.request().url()).pathname.slice(5)}` }),
    )
    await context.route(`${demo.url}/checkout/**`, async (route) => {
      // The page only: its live updates are a stream that must pass through untouched.
      if (route.request().resourceType() !== 'document') return route.continue()
      const response = await route.fetch()
      const body = (await response.text()).replace(
        /integrity="sha384-[^"]+"/g,
        `integrity="${sri['paysession-checkout.js']}"`,
      )
      route.fulfill({ response, body })
    })
  }

  /** In the page: when "Pay" was clicked and when the wallet was asked for what. */
  function watch() {
    const w = window as unknown as { __marks: Record<string, number> }
    w.__marks = {}
    document.addEventListener(
      'click',
      (event) => {
        const button = event.composedPath()[0] as HTMLElement
        // PAY and REVIEW_PAY (an init script has no access to this module's constants).
        const text = button?.textContent?.trim()
        if (text === 'Pay $24.50') w.__marks.pay ??= performance.now()
        if (text === 'Pay 24.50 USDC') w.__marks.reviewPay ??= performance.now()
      },
      true,
    )
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

  async function run(page: Page) {
    const widget = page.locator('paysession-checkout')
    await page.goto(`${demo.url}/checkout/${await newCheckout()}?wallet=autoapprove`)
    await widget.getByRole('button', { name: PAY, exact: true }).click()
    await widget.getByRole('button', { name: /Sandbox Wallet/ }).click()
    await widget.getByRole('button', { name: /USDC/ }).click()
    await widget.getByRole('dialog').getByRole('button', { name: REVIEW_PAY, exact: true }).click()
    await page.waitForFunction(() => (window as any).__marks.eth_sendTransaction, null, {
      timeout: 60_000,
    })
    const marks = await page.evaluate(() => (window as any).__marks as Record<string, number>)
    return {
      connect: marks.eth_requestAccounts! - marks.pay!,
      transaction: marks.eth_sendTransaction! - marks.reviewPay!,
    }
  }

  const builds = [
    { name: 'this tree', dir: undefined as string | undefined },
    ...(reference.error ? [] : [{ name: `reference ${reference.ref}`, dir: reference.dir }]),
  ]
  const times = new Map(
    builds.map((b) => [b.name, { connect: [] as number[], transaction: [] as number[] }]),
  )
  const referenceServer = reference.error ? undefined : await serveStatic({ folder: reference.dir })
  try {
    for (let i = 0; i < RUNS; i++)
      for (const build of builds) {
        const context = await browser.newContext()
        if (build.dir) await serveReference(context, build.dir, referenceServer!.origin)
        const page = await context.newPage()
        if (process.env.BENCH_VERBOSE)
          page.on('console', (m) => console.log(build.name, m.type(), m.text()))
        const cdp = await context.newCDPSession(page)
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
        await cdp.send('Network.enable')
        await cdp.send('Network.emulateNetworkConditions', fast4g)
        await page.addInitScript(watch)
        const result = await run(page)
        times.get(build.name)!.connect.push(result.connect)
        times.get(build.name)!.transaction.push(result.transaction)
        await context.close()
      }
  } finally {
    await browser.close()
    await referenceServer?.close()
  }

  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    )
  const ours = times.get('this tree')!
  const ref = builds[1] && times.get(builds[1].name)!
  const rows = (['connect', 'transaction'] as const).map((what) => ({
    wait:
      what === 'connect'
        ? 'Click Pay → wallet prompt (connect: page button → eth_requestAccounts)'
        : 'Click Pay → wallet prompt (payment: review → eth_sendTransaction)',
    runs: ours[what].length,
    'this tree p50 ms': Math.round(median(ours[what])),
    'reference p50 ms': ref ? Math.round(median(ref[what])) : 'n/a',
    'this tree / reference': ref
      ? `${((median(ours[what]) / median(ref[what])) * 100).toFixed(0)}%`
      : 'n/a',
  }))
  printTable(
    `Phone profile (Chromium, 4× CPU, Fast 4G), script-tag page, Sandbox Wallet; reference: ${
      reference.error ?? `${reference.ref} (${reference.commit.slice(0, 7)})`
    }`,
    rows,
  )
}
