// Latency benchmark: real payments through the demo's script-tag checkout page in Chromium,
// paid by the Sandbox Wallet (auto-approve). Measures, in the page, the time from the funding
// transaction's receipt to the widget showing paid, and counts the checkout's HTTP requests
// (total, while paid, and after the terminal status).
import { chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { newCheckout, startDemoProcess } from './lib/demo-process.ts'
import { freePorts, smoke } from './lib/ports.ts'
import { percentile, printTable } from './lib/sandbox-process.ts'

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? (smoke ? 1 : 30))
const WINDOW_MS = Number(process.env.BENCH_QUIET_WINDOW_MS ?? (smoke ? 500 : 10_000))
const COUNTED = Number(process.env.BENCH_COUNTED ?? (smoke ? 1 : 3))

const [demoPort, apiPort, chainPort] = await freePorts(3)
const demo = await startDemoProcess({ demo: demoPort!, api: apiPort!, chain: chainPort! })
const browser = await chromium.launch(chromiumLaunchOptions)

async function rpc(method: string, params: unknown[]) {
  const res = await fetch(demo.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: any }).result
}

const widget = (page: Page) => page.locator('paysession-checkout')
/** The demo's mug, as the button says it and as the review pays it. */
const PAY = 'Pay $24.50'
const REVIEW_PAY = 'Pay 24.50 USDC'

try {
  const latencies: number[] = []
  const counts: Record<string, number>[] = []
  for (let i = 0; i < PAYMENTS; i++) {
    const id = await newCheckout(demo.url)
    const page = await browser.newPage()
    const requests: { url: string; at: number; done?: number; body?: string }[] = []
    const byRequest = new Map<unknown, (typeof requests)[number]>()
    page.on('request', (r) => {
      const url = r.url()
      if (url.startsWith(demo.apiUrl) || url.startsWith(demo.rpcUrl)) {
        const entry = { url, at: Date.now(), body: r.postData()?.slice(0, 60) }
        requests.push(entry)
        byRequest.set(r, entry)
      }
    })
    page.on('requestfinished', (r) => {
      const entry = byRequest.get(r)
      if (entry) entry.done = Date.now()
    })
    await page.addInitScript(() => {
      const w = window as any
      w.__marks = {}
      for (const type of ['paysession-funding-sent', 'paysession-paid', 'paysession-status-change'])
        document.addEventListener(type, (e: any) => {
          w.__marks[type] = Date.now()
          if (type === 'paysession-status-change')
            w.__marks[`status:${e.detail?.status}`] = Date.now()
          if (type === 'paysession-funding-sent') w.__marks.hash = e.detail?.hash
        })
    })
    await page.goto(`${demo.url}/checkout/${id}?wallet=autoapprove`)
    const t0 = Date.now()
    // Exact names: the review also offers "Pay without network fees".
    await widget(page).getByRole('button', { name: PAY, exact: true }).click()
    await widget(page)
      .getByRole('button', { name: /Sandbox Wallet/ })
      .click()
    await widget(page).getByRole('button', { name: /USDC/ }).click()
    await widget(page)
      .getByRole('dialog')
      .getByRole('button', { name: REVIEW_PAY, exact: true })
      .click()
    await page.waitForFunction(() => (window as any).__marks['paysession-paid'], null, {
      timeout: 30_000,
    })
    const marks = await page.evaluate(() => (window as any).__marks)
    // With automine the wallet returns the hash once the transaction is mined: check it.
    const receipt = await rpc('eth_getTransactionReceipt', [marks.hash])
    if (receipt?.status !== '0x1') throw new Error(`no successful receipt for ${marks.hash}`)
    latencies.push(marks['paysession-paid'] - marks['paysession-funding-sent'])
    if (process.env.BENCH_VERBOSE) {
      // The checkout's requests around the payment, from the hash (the page's clock is Date.now).
      const sent = marks['paysession-funding-sent']
      const around = requests
        .filter((r) => r.at > sent - 2000)
        .map(
          (r) =>
            `${r.at - sent}–${r.done === undefined ? '?' : r.done - sent} ${r.url.replace(/^https?:\/\/[^/]+/, '')} ${r.body ?? ''}`,
        )
      console.log(i, latencies.at(-1), JSON.stringify(marks), around)
    }

    if (i < COUNTED) {
      const paidAt = marks['paysession-paid']
      await page.waitForTimeout(WINDOW_MS)
      const whilePaid = requests.filter((r) => r.at > paidAt).length
      // The merchant's final capture makes the session terminal (SUCCEEDED).
      const cap = await fetch(`${demo.apiUrl}/api/v1/payment-sessions/${id}/captures`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          requestId: crypto.randomUUID(),
          captureAmount: '24.50',
          isFinalCapture: true,
        }),
      })
      if (cap.status !== 202) throw new Error(`capture failed: ${cap.status}`)
      await page.waitForFunction(() => (window as any).__marks['status:SUCCEEDED'], null, {
        timeout: 60_000,
      })
      const doneAt = await page.evaluate(() => (window as any).__marks['status:SUCCEEDED'])
      await page.waitForTimeout(WINDOW_MS)
      counts.push({
        payment: i + 1,
        'to paid': requests.filter((r) => r.at <= paidAt).length,
        [`${WINDOW_MS / 1000}s while paid`]: whilePaid,
        [`${WINDOW_MS / 1000}s after SUCCEEDED`]: requests.filter((r) => r.at > doneAt + 50).length,
        total: requests.length,
        'click to paid ms': paidAt - t0,
      })
    }
    await page.close()
  }
  latencies.sort((a, b) => a - b)
  printTable(`Receipt → widget shows paid (${PAYMENTS} payments, script-tag page, Chromium)`, [
    {
      payments: latencies.length,
      'p50 ms': percentile(latencies, 50),
      'p95 ms': percentile(latencies, 95),
      'min ms': latencies[0]!,
      'max ms': latencies[latencies.length - 1]!,
    },
  ])
  printTable('HTTP requests of one checkout to the service and the chain', counts)
} finally {
  await browser.close()
  await demo.stop()
}
