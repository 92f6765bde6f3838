// The browser side: the <paysession-checkout> element (through its open shadow root), the
// demo's Sandbox Wallet, screenshots and axe.
import { expect, type Page, type TestInfo } from '@playwright/test'
import type { CheckoutStep as Step } from '../../packages/core/src/checkout/types.js'
import { axeViolations } from '../../scripts/axe.mjs'
import { env } from './env.js'

// The checkout's steps are core's type, not a copy (type-only: nothing of core loads here).
export type { CheckoutStep as Step } from '../../packages/core/src/checkout/types.js'

/**
 * Before any page script: records the widget's step changes and events, page errors and CSP
 * violations in `window.__e2e`, so a test can read what the customer went through.
 */
export async function watchPage(page: Page) {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.addInitScript(() => {
    const w = window as any
    w.__e2e = { steps: [], events: [], csp: [] }
    for (const type of [
      'paysession-ready',
      'paysession-open',
      'paysession-close',
      'paysession-step-change',
      'paysession-wallet-connected',
      'paysession-token-selected',
      'paysession-funding-sent',
      'paysession-status-change',
      'paysession-paid',
      'paysession-error',
    ])
      document.addEventListener(type, (event) => {
        const detail = (event as CustomEvent).detail
        w.__e2e.events.push({ type, detail })
        if (type === 'paysession-step-change') w.__e2e.steps.push(detail.step)
      })
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        w.__e2e.csp.push({
          directive: event.violatedDirective,
          blocked: event.blockedURI,
          source: event.sourceFile,
          line: event.lineNumber,
          sample: event.sample,
        })
      },
      true,
    )
  })
  return { errors }
}

export const recorded = (page: Page) =>
  page.evaluate(
    () =>
      (window as any).__e2e as {
        steps: string[]
        events: { type: string; detail: any }[]
        csp: Record<string, unknown>[]
      },
  )

export const widget = (page: Page) => page.locator('paysession-checkout')
export const payButton = (page: Page) => page.locator('paysession-checkout [part~="button"]')
/** The widget's dialog (not the wallet's). */
export const dialog = (page: Page) => widget(page).getByRole('dialog')
export const walletDialog = (page: Page) => page.locator('sandbox-wallet-ui dialog[open]')

export async function waitForStep(page: Page, step: Step | Step[], timeout = 30_000) {
  const steps = Array.isArray(step) ? step : [step]
  try {
    await page.waitForFunction(
      (s) => s.includes((document.querySelector('paysession-checkout') as any)?.state?.step),
      steps,
      { timeout, polling: 50 },
    )
  } catch (error) {
    const at = await page
      .evaluate(() => {
        const state = (document.querySelector('paysession-checkout') as any)?.state
        if (!state) return 'its dialog code has not started'
        return `it is at ${state.step}${state.error ? `, error ${state.error.code}: ${state.error.message}` : ''}`
      })
      .catch((e) => `the page did not answer (${e})`)
    throw new Error(`The checkout did not reach ${steps.join(' or ')}: ${at}`, { cause: error })
  }
}

export const currentStep = (page: Page) =>
  page.evaluate(() => (document.querySelector('paysession-checkout') as any)?.state?.step as Step)

// ---- The Sandbox Wallet ------------------------------------------------------------------------

type WalletMode = 'ask' | 'autoapprove' | 'autoreject'

/** Picks the test customer (0–4) and how the wallet answers prompts. */
export async function setupWallet(page: Page, customer: number, mode: WalletMode = 'autoapprove') {
  await page.waitForFunction(() => Boolean((window as any).__sandboxWallet))
  await page.evaluate(
    ([i, m]) => {
      const w = (window as any).__sandboxWallet
      w.selectAccount(i)
      w.setMode(m)
    },
    [customer, mode] as const,
  )
}

export const setWalletMode = (page: Page, mode: WalletMode) =>
  page.evaluate((m) => (window as any).__sandboxWallet.setMode(m), mode)

export const walletPending = (page: Page) =>
  page.evaluate(
    () => (window as any).__sandboxWallet.pending() as { kind: string; rows?: string[][] }[],
  )

export const walletChainId = (page: Page) =>
  page.evaluate(() => (window as any).__sandboxWallet.chainId as string)

/** Counts the transactions the wallet sends to the chain (approved prompts), per page. */
export function countSends(page: Page) {
  const sends: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(env.rpc) && request.method() === 'POST') {
      const body = request.postData() ?? ''
      if (body.includes('eth_sendTransaction') || body.includes('eth_sendRawTransaction'))
        sends.push(body)
    }
  })
  return sends
}

/**
 * From the moment the wallet has sent the transfer, every chain request from the page is refused
 * (connection refused) until `restore()`. `sent` counts the sends, `refused` the refusals.
 */
export async function rpcDownAfterSend(page: Page) {
  const rpc = {
    down: false,
    sent: 0,
    refused: 0,
    restore() {
      rpc.down = false
    },
  }
  await page.route(
    (url) => url.href.startsWith(env.rpc),
    async (route) => {
      if ((route.request().postData() ?? '').includes('eth_sendTransaction')) {
        rpc.sent++
        await route.continue()
        rpc.down = true
        return
      }
      if (!rpc.down) return route.continue()
      rpc.refused++
      return route.abort('connectionrefused')
    },
  )
  return rpc
}

// ---- The customer's path ----------------------------------------------------------------------

/**
 * Opens a checkout page of the demo with the page watchers installed, as test customer
 * `customer`. The wallet mode goes in the URL (`?wallet=autoapprove`), so it survives reloads.
 */
export async function openCheckout(
  page: Page,
  path: string,
  customer = 0,
  mode: WalletMode = 'autoapprove',
) {
  const watched = await watchPage(page)
  await page.goto(`${env.demo}${path}${mode === 'ask' ? '' : `?wallet=${mode}`}`)
  await setupWallet(page, customer, mode)
  return watched
}

/** The text of a step's main paragraph (the live region repeats it for screen readers). */
export const stepText = (page: Page, text: string | RegExp) =>
  dialog(page).locator('p.center', { hasText: text })

/** Pay button → Sandbox Wallet → connected: stops at the stablecoin choice. */
export async function connect(page: Page) {
  await expect(payButton(page)).toHaveText(/Pay /)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
  // A session that accepts one token (EUR: EURC) goes straight to review.
  await waitForStep(page, ['chooseToken', 'review'])
}

export async function chooseToken(page: Page, symbol: string) {
  const only = await page.evaluate(
    (s) => (document.querySelector('paysession-checkout') as any)?.state?.selectedToken === s,
    symbol,
  )
  if (only && (await currentStep(page)) === 'review') return
  await dialog(page)
    .getByRole('button', { name: new RegExp(`^${symbol}`) })
    .click()
  await waitForStep(page, 'review')
}

/** The review step's "Pay 12.00 USDC" (not "Pay from another wallet…"). */
export const reviewPayButton = (page: Page) =>
  dialog(page).getByRole('button', { name: /^Pay [\d$€]/ })

/** From the closed widget to paid, with the wallet approving by itself. */
export async function payFully(page: Page, symbol: string) {
  await connect(page)
  await chooseToken(page, symbol)
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
}

/**
 * The SPA page moves on to its thank-you page 1.5 s after `paysession-paid`. A test that checks
 * the paid dialog there holds that event from before the page loads (`holdPaidEvent`) and lets it
 * through afterwards (`releasePaidEvent`), so the check never races the page moving on.
 */
export async function holdPaidEvent(page: Page) {
  await page.addInitScript(() => {
    const w = window as any
    w.__e2eHeld = []
    window.addEventListener(
      'paysession-paid',
      (event) => {
        if (w.__e2eReleasing) return
        event.stopImmediatePropagation()
        const { target, bubbles, composed } = event
        w.__e2eHeld.push({ target, bubbles, composed, detail: (event as CustomEvent).detail })
      },
      true,
    )
  })
}

export async function releasePaidEvent(page: Page) {
  await page.evaluate(() => {
    const w = window as any
    w.__e2eReleasing = true
    for (const { target, detail, bubbles, composed } of w.__e2eHeld.splice(0))
      target.dispatchEvent(new CustomEvent('paysession-paid', { detail, bubbles, composed }))
  })
}

export async function expectPaidView(page: Page) {
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await expect(payButton(page)).toHaveText('Paid')
}

// ---- Evidence ---------------------------------------------------------------------------------

/** A screenshot of what the customer sees now, attached to the test (kept in test-results). */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}

/** axe on the widget (its shadow DOM included): no violations, in every state. */
export async function expectAxeClean(page: Page, testInfo?: TestInfo, name?: string) {
  const violations = (await axeViolations(page, { include: [['paysession-checkout']] })).map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
  if (testInfo && violations.length)
    await testInfo.attach(`axe-${name}`, { body: violations.join('\n'), contentType: 'text/plain' })
  expect(violations, `axe violations in state ${name ?? ''}`).toEqual([])
}

/** Screenshot and axe scan of one state. */
export async function state(page: Page, testInfo: TestInfo, name: string, axe = true) {
  await shot(page, testInfo, name)
  if (axe) await expectAxeClean(page, testInfo, name)
}
