// Phone profile: how soon a customer on a mid-range phone can press the checkout's first button,
// and how long each press takes to reach their wallet, for paysession and for every app the size
// bench builds (the wagmi + viem + react-query baseline, RainbowKit, AppKit, ConnectKit,
// OnchainKit, thirdweb), side by side in one run, with one wallet, on one local chain. Chromium
// with 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate) and DevTools' "Fast 4G" network (CDP
// Network.emulateNetworkConditions): 165 ms round trip, 9 Mbit/s down, 1.5 Mbit/s up, both × 0.9,
// as DevTools defines the preset.
//
// Fair by construction:
// - Served alike: every app is a bare page (the app's script, its styles, the element or the
//   React root) on its own static server (scripts/serve-static.mjs: gzip, cacheable, as a CDN
//   serves a versioned folder); paysession's page is the script tag and the element, as a
//   merchant embeds it.
// - One wallet: an EIP-6963 provider (also `window.ethereum`, as most wallets are) injected into
//   every page by the same init script. It holds the sandbox's first test customer, answers the
//   account and chain itself and hands every other call to the local chain, as a wallet does.
// - No internet for anyone: host names other than 127.0.0.1 do not resolve, so an SDK's calls
//   home fail at once instead of waiting (in their favour).
// - Sampled alike: each sample is a fresh browser context (an empty cache); after a warm-up, the
//   apps take turns, in an order that rotates each round, so a busy moment of the shared machine
//   falls on all of them.
//
// Three waits, timed in the page with performance.now():
// 1. navigation → the first control (connect, or paysession's "Pay $24.50") is visible and enabled;
// 2. its click (pointerdown) → `eth_requestAccounts` reaches the wallet, the wallet picked by name
//    in the first frame a kit's list offers it (clicked in the page, so the bench's own reaction
//    is no part of the wait);
// 3. for paysession and the baseline: the click on the button that pays → `eth_sendTransaction`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { serveStatic } from '../scripts/serve-static.mjs'
// @ts-expect-error: plain JavaScript, shared with size/run.mjs
import { cachedBuilds, entryOf } from './lib/competitors.mjs'
import { newCheckout, startDemoProcess } from './lib/demo-process.ts'
import { freePorts, smoke } from './lib/ports.ts'
// @ts-expect-error: plain JavaScript, shared with size/run.mjs
import { referenceBuild, thisTreeBuild } from './lib/reference.mjs'
import { percentile } from './lib/sandbox-process.ts'

/** Samples of each app, after the warm-up. */
const SAMPLES = Number(process.env.BENCH_PHONE_RUNS ?? (smoke ? 1 : 10))
const WARMUP = Number(process.env.BENCH_PHONE_WARMUP ?? (smoke ? 0 : 1))
/** A customer's pause before each click (0: the bench clicks as soon as a control is there). */
const DWELL_MS = Number(process.env.BENCH_PHONE_DWELL_MS ?? 0)
// A folder for each sample's CPU profile from navigation to the wallet's connection request
// (`.cpuprofile`, for DevTools' Performance panel), when looking for what delays a row.
const PROFILE_DIR = process.env.BENCH_PHONE_PROFILE
const fast4g = {
  offline: false,
  latency: 60 * 2.75,
  downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
}
const WALLET = 'Bench Wallet'
/** The sandbox's first test customer (anvil's dev account 0, which anvil signs for). */
const CUSTOMER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

type App = {
  name: string
  label: string
  /** The chain the app pays on: the wallet is on it when the page opens. */
  chainId: number
  /** The first control: its whole text. */
  control: string
  /** The page of one sample. */
  url(): Promise<string>
  /** From connected to the click that pays (that click's pointerdown is marked). */
  pay?(page: Page): Promise<void>
  /** Why its click cannot reach the bench's wallet: only the control is timed. */
  noConnect?: string
  stop?(): Promise<void>
}
type Sample = { control: number; connect?: number; pay?: number }

const [demoPort, apiPort, chainPort] = await freePorts(3)
const demo = await startDemoProcess({ demo: demoPort!, api: apiPort!, chain: chainPort! })
const root = mkdtempSync(join(tmpdir(), 'paysession-bench-phone-'))
/** A bare page for the checkout: its script tag and the element for one new session. */
async function paysessionApp(name: string, label: string, build: string): Promise<App> {
  const folder = join(root, name)
  mkdirSync(join(folder, 'pay'), { recursive: true })
  symlinkSync(build, join(folder, 'cdn'))
  const sri = JSON.parse(readFileSync(join(build, 'sri.json'), 'utf8'))
  const server = await serveStatic({ folder, gzip: true })
  const PAY = 'Pay $24.50'
  const REVIEW_PAY = 'Pay 24.50 USDC'
  return {
    name,
    label,
    chainId: 31337,
    control: PAY,
    async url() {
      const id = await newCheckout(demo.url)
      // The session's element as the demo's checkout page renders it (its token among them).
      const page = await (await fetch(`${demo.url}/checkout/${encodeURIComponent(id)}`)).text()
      const element = page.match(/<paysession-checkout\s+session-id=[^>]*data-rpc-url[^>]*>/)?.[0]
      const attribute = (key: string) => element?.match(new RegExp(`\\s${key}="([^"]*)"`))?.[1]
      if (!element) throw new Error('the demo checkout page has no <paysession-checkout>')
      const attributes = [
        'session-id',
        'session-token',
        'api-base',
        'merchant-name',
        'expected-amount',
        'expected-currency',
      ]
        .map((key) => `${key}="${attribute(key)}"`)
        .join(' ')
      const rpcUrls = JSON.stringify({ [attribute('data-chain-id')!]: attribute('data-rpc-url') })
      writeFileSync(
        join(folder, 'pay', `${id}.html`),
        `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
<script type="module" src="/cdn/paysession-checkout.js" integrity="${sri['paysession-checkout.js']}" crossorigin="anonymous"></script>
</head>
<body>
<paysession-checkout ${attributes} rpc-urls='${rpcUrls}'></paysession-checkout>
</body>
</html>
`,
      )
      return `${server.origin}/pay/${id}.html`
    },
    async pay(page) {
      const widget = page.locator('paysession-checkout')
      await click(page, widget.getByRole('button', { name: /USDC/ }))
      await click(
        page,
        widget.getByRole('dialog').getByRole('button', { name: REVIEW_PAY, exact: true }),
        'pay',
      )
    },
    stop: () => server.close(),
  }
}

/** A competitor app's build, served at the root of its own server beside a bare page. */
async function competitorApp(name: string, dir: string, competitor: Competitor): Promise<App> {
  const { control, pay, noConnect } = competitor
  const folder = join(root, name)
  mkdirSync(folder)
  symlinkSync(join(dir, 'assets'), join(folder, 'assets'))
  const { script, styles } = entryOf(dir) as { script: string; styles: string[] }
  writeFileSync(
    join(folder, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`,
  )
  const server = await serveStatic({ folder, gzip: true })
  return {
    name,
    label: competitor.label,
    chainId: 8453,
    control,
    url: async () => `${server.origin}/`,
    ...(pay ? { pay } : {}),
    ...(noConnect ? { noConnect } : {}),
    stop: () => server.close(),
  }
}

type Competitor = Pick<App, 'label' | 'control' | 'pay' | 'noConnect'> & {
  /** Why it cannot be timed at all in the bench. */
  unavailable?: string
}
/** The competitor apps, by their build's name: their label and their first control's text. */
const COMPETITORS: Record<string, Competitor> = {
  'wagmi3-baseline': {
    label: 'wagmi + viem + react-query (no UI kit)',
    control: 'Connect wallet',
    // The baseline's button once connected: wagmi's ERC-20 transfer, sent as it is.
    async pay(page) {
      await click(page, page.getByRole('button', { name: 'Pay 10 USDC', exact: true }), 'pay')
    },
  },
  rainbowkit: { label: 'RainbowKit', control: 'Connect Wallet' },
  'reown-appkit': { label: 'Reown AppKit', control: 'Connect Wallet' },
  connectkit: { label: 'ConnectKit', control: 'Connect Wallet' },
  'onchainkit-checkout': {
    label: 'OnchainKit <Checkout>',
    control: 'Pay 10 USDC',
    // CheckoutProvider's connectAsync({ connector: coinbaseWallet(…) }) when not connected.
    noConnect: 'its button connects Coinbase Wallet only, never an injected wallet',
  },
  'thirdweb-checkout': {
    label: 'thirdweb <CheckoutWidget>',
    control: 'Connect Wallet',
    unavailable: "its widget shows only an error until thirdweb's API answers (no internet here)",
  },
}
/** `BENCH_PHONE_APPS` picks apps (comma-separated); also `reference` (the reference build). */
const names = (
  process.env.BENCH_PHONE_APPS ?? ['paysession', ...Object.keys(COMPETITORS)].join(',')
).split(',')

/** What the tables do not say (printed under them), and what fails the run. */
const notes: string[] = []
const problems: string[] = []

async function setUpApps(): Promise<App[]> {
  const apps: App[] = []
  if (names.includes('paysession'))
    apps.push(await paysessionApp('paysession', 'paysession (script tag)', thisTreeBuild()))
  if (names.includes('reference')) {
    const reference = referenceBuild({ build: !smoke })
    if (reference.error) notes.push(`reference: ${reference.error}`)
    else
      apps.push(
        await paysessionApp(
          'reference',
          `paysession, reference ${reference.ref} (${reference.commit.slice(0, 7)})`,
          reference.dir,
        ),
      )
  }
  const wanted = Object.keys(COMPETITORS).filter((name) => names.includes(name))
  if (wanted.length) {
    const built = (await cachedBuilds(wanted)) as { dirs?: Record<string, string>; error?: string }
    if (built.error) problems.push(`the other SDKs' apps: ${built.error}`)
    for (const name of wanted) {
      const competitor = COMPETITORS[name]!
      if (competitor.unavailable) notes.push(`${competitor.label}: n/a, ${competitor.unavailable}`)
      else if (built.dirs) apps.push(await competitorApp(name, built.dirs[name]!, competitor))
    }
  }
  return apps
}

/** In the page, before any of its scripts: the wallet, and the marks of every wait. */
function inPage(o: {
  wallet: string
  account: string
  chainId: number
  rpcUrl: string
  control: string
  verbose: boolean
}) {
  type Marks = Record<string, number>
  const w = window as unknown as {
    __marks: Marks
    __next?: string
    __control?: Element
    ethereum?: unknown
  }
  const marks: Marks = {}
  w.__marks = marks
  const now = () => performance.now()

  // The wallet: it answers the account and the chain itself, and hands the rest to the local
  // chain. It is on the app's chain when the page opens (the competitors pay on Base: the local
  // chain stands in for it).
  const chainHex = `0x${o.chainId.toString(16)}`
  let connected = false
  let id = 0
  const failure = (code: number, message: string) => Object.assign(new Error(message), { code })
  const forward = async (method: string, params: unknown) => {
    const res = await fetch(o.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
    })
    const body = await res.json()
    if (body.error) throw Object.assign(failure(body.error.code, body.error.message), body.error)
    return body.result
  }
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      marks[method] ??= now()
      if (o.verbose) console.log('wallet', method, JSON.stringify(params ?? []).slice(0, 200))
      switch (method) {
        case 'eth_requestAccounts':
        case 'wallet_requestPermissions':
          connected = true
          return method === 'eth_requestAccounts'
            ? [o.account]
            : [{ parentCapability: 'eth_accounts' }]
        case 'eth_accounts':
          return connected ? [o.account] : []
        case 'wallet_getPermissions':
          return connected ? [{ parentCapability: 'eth_accounts' }] : []
        case 'wallet_revokePermissions':
          connected = false
          return null
        case 'eth_chainId':
          return chainHex
        case 'net_version':
          return String(o.chainId)
        case 'wallet_switchEthereumChain':
          if ((params?.[0] as { chainId?: string })?.chainId?.toLowerCase() === chainHex)
            return null
          throw failure(4902, 'Unrecognized chain')
        case 'eth_sendTransaction': {
          // Signed by the local chain, whichever chain the app believes it is on.
          const { chainId: _, ...transaction } = (params?.[0] ?? {}) as Record<string, unknown>
          return forward(method, [{ ...transaction, from: o.account }])
        }
        default:
          if (method.startsWith('wallet_')) throw failure(4200, `${method} is not supported`)
          return forward(method, params)
      }
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener)
      return provider
    },
    removeListener(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener)
      return provider
    },
  }
  const info = {
    uuid: crypto.randomUUID(),
    name: o.wallet,
    rdns: 'dev.paysession.bench',
    icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"%3E%3Crect width="1" height="1"/%3E%3C/svg%3E',
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  w.ethereum = provider

  // An element whose whole text is `text`, in the page or any open shadow root, as the button
  // that takes its click: itself, the button around it, or the button inside it.
  const find = (text: string): HTMLElement | undefined => {
    const search = (scope: Document | ShadowRoot): HTMLElement | undefined => {
      for (const el of scope.querySelectorAll<HTMLElement>('*')) {
        if (el.textContent?.trim() === text) {
          const button =
            el.closest<HTMLElement>('button, [role="button"]') ??
            el.querySelector<HTMLElement>('button, [role="button"]') ??
            el.shadowRoot?.querySelector<HTMLElement>('button, [role="button"]') ??
            el
          const usable =
            !(button as HTMLButtonElement).disabled &&
            button.getAttribute('aria-disabled') !== 'true' &&
            button.checkVisibility({ opacityProperty: true, visibilityProperty: true })
          if (usable) return button
        }
        const inner = el.shadowRoot && search(el.shadowRoot)
        if (inner) return inner
      }
    }
    return search(document)
  }
  // 1. The first frame in which the control is usable.
  const watchControl = () => {
    const control = find(o.control)
    if (!control) return requestAnimationFrame(watchControl)
    marks.control = now()
    w.__control = control
  }
  requestAnimationFrame(watchControl)
  // 2. After the control's click, the wallet is picked in the first frame it is offered (kits
  // without a list ask the wallet at once).
  let picked = 0
  const pick = () => {
    if (marks.eth_requestAccounts) return
    const wallet = find(o.wallet)
    if (wallet && now() - picked > 1000) {
      picked = now()
      marks.walletPicked ??= picked
      wallet.click()
    }
    requestAnimationFrame(pick)
  }
  // The bench names the press it is about to make (w.__next): its pointerdown is marked.
  document.addEventListener(
    'pointerdown',
    (event) => {
      if (!event.isTrusted || !w.__next) return
      marks[w.__next] ??= now()
      if (w.__next === 'click') requestAnimationFrame(pick)
    },
    true,
  )
}

/** Clicks `button` once it is usable, its pointerdown marked as `mark`. */
async function click(page: Page, button: ReturnType<Page['locator']>, mark?: string) {
  await button.waitFor()
  if (DWELL_MS) await page.waitForTimeout(DWELL_MS)
  await page.evaluate((next) => {
    ;(window as unknown as { __next?: string }).__next = next
  }, mark)
  await button.click()
}

async function sample(browser: Browser, app: App): Promise<Sample | undefined> {
  const context = await browser.newContext()
  const page = await context.newPage()
  try {
    if (process.env.BENCH_VERBOSE) {
      page.on('console', (m) => console.log(app.name, m.type(), m.text()))
      page.on('requestfailed', (r) =>
        console.log(app.name, 'failed', r.method(), r.url(), r.failure()?.errorText),
      )
    }
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', fast4g)
    // tsx names the page's functions with its helper: the page gets one that does nothing.
    await page.addInitScript('globalThis.__name = (target) => target')
    await page.addInitScript(inPage, {
      wallet: WALLET,
      account: CUSTOMER,
      chainId: app.chainId,
      rpcUrl: demo.rpcUrl,
      control: app.control,
      verbose: Boolean(process.env.BENCH_VERBOSE),
    })
    if (PROFILE_DIR) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
      await cdp.send('Profiler.start')
    }
    const url = await app.url()
    await page.goto(url, { waitUntil: 'commit' })
    const control = await page.waitForFunction(
      () => (window as unknown as { __control?: Element }).__control,
      null,
      { timeout: 60_000 },
    )
    if (app.noConnect) {
      const marks = await page.evaluate(() => (window as any).__marks as Record<string, number>)
      return { control: marks.control! }
    }
    if (DWELL_MS) await page.waitForTimeout(DWELL_MS)
    await page.evaluate(() => {
      ;(window as unknown as { __next?: string }).__next = 'click'
    })
    await control.asElement()!.click()
    await page.waitForFunction(() => (window as any).__marks.eth_requestAccounts, null, {
      timeout: 60_000,
    })
    if (PROFILE_DIR) {
      const { profile } = await cdp.send('Profiler.stop')
      const file = join(PROFILE_DIR, `${app.name}-${Date.now()}.cpuprofile`)
      writeFileSync(file, JSON.stringify(profile))
    }
    if (app.pay) {
      await app.pay(page)
      await page.waitForFunction(() => (window as any).__marks.eth_sendTransaction, null, {
        timeout: 60_000,
      })
    }
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
      console.log(app.name, JSON.stringify({ marks, files }))
    }
    return {
      control: marks.control!,
      connect: marks.eth_requestAccounts! - marks.click!,
      ...(app.pay ? { pay: marks.eth_sendTransaction! - marks.pay! } : {}),
    }
  } catch (error) {
    // A sample that did not reach the wallet is reported with what the page showed, and the run
    // goes on: the table says how many failed, and the run fails.
    const shot = join(tmpdir(), `paysession-bench-phone-${app.name}-${Date.now()}.png`)
    await page.screenshot({ path: shot }).catch(() => {})
    const marks = await page.evaluate(() => (window as any).__marks).catch(() => undefined)
    console.error(
      `phone: a sample of ${app.name} failed (${(error as Error).message.split('\n')[0]}); marks ${JSON.stringify(marks)}, screenshot ${shot}`,
    )
    return undefined
  } finally {
    await context.close()
  }
}

let apps: App[] = []
const times = new Map<string, Sample[]>()
const failed = new Map<string, number>()
const browser = await chromium.launch({
  ...chromiumLaunchOptions,
  args: [
    ...chromiumLaunchOptions.args,
    // No internet, alike for every app: other hosts fail to resolve at once.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  ],
})
try {
  apps = await setUpApps()
  for (const app of apps) {
    times.set(app.name, [])
    failed.set(app.name, 0)
  }
  for (let i = 0; i < WARMUP; i++) for (const app of apps) await sample(browser, app)
  for (let i = 0; i < SAMPLES; i++)
    for (const app of [...apps.slice(i % apps.length), ...apps.slice(0, i % apps.length)]) {
      const result = await sample(browser, app)
      if (result) times.get(app.name)!.push(result)
      else failed.set(app.name, failed.get(app.name)! + 1)
    }
} finally {
  await browser.close()
  for (const app of apps) await app.stop?.()
  await demo.stop()
  rmSync(root, { recursive: true, force: true })
}

const p = (values: number[], at: number) =>
  percentile(
    [...values].sort((a, b) => a - b),
    at,
  )
const ms = (value: number) => Math.round(value).toLocaleString('en-US')
const base = apps[0]
const waits = [
  ['control', 'navigation → the connect or pay control is usable'],
  ['connect', 'its click → eth_requestAccounts reaches the wallet'],
  ['pay', 'the click that pays → eth_sendTransaction reaches the wallet'],
] as const
console.log(
  `\nPhone profile (Chromium, 4× CPU, Fast 4G): each app's bare page, one injected wallet (${WALLET}); ${SAMPLES} samples of each after ${WARMUP} warm-up, taking turns`,
)
for (const [key, what] of waits) {
  const of = (app: App) =>
    times.get(app.name)!.flatMap((s) => (s[key] === undefined ? [] : [s[key]!]))
  const timed = apps.filter((app) => of(app).length)
  if (!timed.length) continue
  const ours = base && of(base).length ? p(of(base), 50) : undefined
  const ranked = [...timed].sort((x, y) => p(of(x), 50) - p(of(y), 50))
  console.log(`\nPhone profile, ${what}\n`)
  console.log(`| app | samples (failed) | p50 ms | p90 ms | p50 / ${base?.name} | rank |`)
  console.log('|---|--:|--:|--:|--:|--:|')
  for (const app of timed) {
    const values = of(app)
    const ratio = ours ? `${(p(values, 50) / ours).toFixed(2)}×` : 'n/a'
    console.log(
      `| ${app.label} | ${values.length} (${failed.get(app.name)}) | ${ms(p(values, 50))} | ${ms(p(values, 90))} | ${ratio} | ${ranked.indexOf(app) + 1} |`,
    )
  }
}
for (const app of apps)
  if (app.noConnect) notes.push(`${app.label}: its click is not timed, ${app.noConnect}`)
if (notes.length) console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`)
for (const problem of problems) console.error(`phone: ${problem}`)
if (problems.length || [...failed.values()].some(Boolean) || !apps.length) process.exitCode = 1
