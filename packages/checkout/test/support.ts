import { expect, type Page } from '@playwright/test'
import { axeViolations } from '../../../scripts/axe.mjs'
import { installWallet } from './wallet.js'

export const env = {
  page: process.env.PAGE_URL!,
  api: process.env.SANDBOX_API_URL!,
  apiKey: process.env.SANDBOX_API_KEY!,
  rpc: process.env.SANDBOX_RPC_URL!,
  customer: process.env.SANDBOX_CUSTOMER!,
  /** The sandbox's test smart account and Safe-like account (packages/sandbox/contracts). */
  accounts: JSON.parse(process.env.SANDBOX_ACCOUNTS ?? '{}') as {
    smartAccount: { address: string; owner: string; bundler: string }
    safe: { address: string; owners: [string, string] }
  },
  /** The strict-profile sandbox: only what the spec promises (same customers, its own API key). */
  strictApi: process.env.STRICT_API_URL!,
  strictApiKey: process.env.STRICT_API_KEY!,
  strictRpc: process.env.STRICT_RPC_URL!,
}

export type Session = { paymentSessionId: string; paymentSessionToken: string }

/** A new session on the real sandbox, created with the merchant API key. */
export async function createSession(amount = '10.00', currency = 'USD'): Promise<Session> {
  const response = await fetch(`${env.api}/api/v1/payment-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, currency }),
  })
  expect(response.status).toBe(200)
  return response.json()
}

/** Waits until the service sees the session in one of these statuses (read with the API key). */
export async function waitForStatus(session: Session, statuses: string[]) {
  await expect
    .poll(async () => {
      const response = await fetch(
        `${env.api}/api/v1/payment-sessions/${session.paymentSessionId}`,
        {
          headers: { authorization: `Bearer ${env.apiKey}` },
        },
      )
      return (await response.json()).status
    })
    .toMatch(new RegExp(`^(${statuses.join('|')})$`))
}

/** Final capture by the merchant: the session moves FUNDED → CAPTURING → SUCCEEDED. */
export async function capture(session: Session, amount = '10.00') {
  const response = await fetch(
    `${env.api}/api/v1/payment-sessions/${session.paymentSessionId}/captures`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requestId: crypto.randomUUID(),
        captureAmount: amount,
        isFinalCapture: true,
      }),
    },
  )
  expect(response.status).toBe(202)
}

/** Pays from customer 0 outside the widget (like a phone wallet after scanning the QR). */
export const payOutside = (session: Session) =>
  fetch(`${env.page}/__sandbox/pay?session=${session.paymentSessionId}`).then((r) => r.json())

export const advanceClock = (seconds: number) =>
  fetch(`${env.page}/__sandbox/advance?seconds=${seconds}`)

export async function openPage(
  page: Page,
  session: Session,
  options: {
    wallet?: boolean
    locale?: string
    theme?: string
    token?: string
    merchant?: string
    logo?: string
    /** The element's RPC URL (the wallet keeps the service's). */
    rpc?: string
    tokenProvider?: boolean
    /** The wallet acts as the sandbox's smart account (EIP-5792) or its Safe-like account. */
    account?: 'smart' | 'safe'
    /** Another service: its API base and chain RPC. */
    service?: { api: string; rpc: string }
    /** More attributes for the element (`expected-amount`, another `api-base`...). */
    attributes?: Record<string, string>
    /** The element's `polling` property: core's polling settings. */
    polling?: { callsTimeout?: number; interval?: number }
  } = {},
) {
  const service = options.service ?? { api: env.api, rpc: env.rpc }
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused/i.test(message.text()))
      errors.push(message.text())
  })
  if (options.wallet !== false)
    await page.addInitScript(installWallet, {
      rpcUrl: service.rpc,
      account: env.customer,
      ...(options.account === 'smart' ? { smartAccount: env.accounts.smartAccount } : {}),
      ...(options.account === 'safe' ? { safe: env.accounts.safe } : {}),
    })
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': options.token ?? session.paymentSessionToken,
    'api-base': service.api,
    rpc: options.rpc ?? service.rpc,
    ...(options.merchant ? { 'merchant-name': options.merchant } : {}),
    ...(options.logo ? { 'merchant-logo': options.logo } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.theme ? { theme: options.theme } : {}),
    ...(options.tokenProvider ? { 'token-provider': '1' } : {}),
    ...(options.polling ? { polling: JSON.stringify(options.polling) } : {}),
    ...options.attributes,
  })
  await page.goto(`${env.page}/test/pages/index.html?${query}`)
  return { errors }
}

export const checkout = (page: Page) => page.locator('paysession-checkout')
export const payButton = (page: Page) => page.locator('paysession-checkout [part~="button"]')
export const dialog = (page: Page) => page.getByRole('dialog')

/** Waits until the checkout is at `step`; if it is not within `timeout`, says where it stayed. */
export async function waitForStep(page: Page, step: string, timeout = 45_000) {
  try {
    await page.waitForFunction(
      (s) => (document.querySelector('paysession-checkout') as any)?.state?.step === s,
      step,
      { timeout },
    )
  } catch (error) {
    throw new Error(`The checkout did not reach ${step}: ${await where(page)}`, { cause: error })
  }
}

/** The checkout's step and error now, for a failure message. */
const where = (page: Page) =>
  page
    .evaluate(() => {
      const state = (document.querySelector('paysession-checkout') as any)?.state
      if (!state) return 'its dialog code has not started'
      return `it is at ${state.step}${state.error ? `, error ${state.error.code}: ${state.error.message}` : ''}`
    })
    .catch((error) => `the page did not answer (${error})`)

/** From the page's button to the review: the test wallet, then USDC. */
export async function reviewWithTestWallet(page: Page) {
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
}

/** From the page's button to paid: the test wallet, USDC, then Pay in the review. */
export async function payWithTestWallet(page: Page) {
  await reviewWithTestWallet(page)
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
}

/** The checkout has started (its dialog code runs once the page is idle, or on open). */
export const waitForCheckout = (page: Page) =>
  page.waitForFunction(
    () => (document.querySelector('paysession-checkout') as any)?.state !== undefined,
  )

export const events = (page: Page) =>
  page.evaluate(
    () => (window as any).__events as { type: string; detail: any; composed: boolean }[],
  )

export async function expectAxeClean(page: Page) {
  const violations = await axeViolations(page, { include: [['paysession-checkout']] })
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([])
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `screenshots/${name}.png` })

/** With SCREENSHOTS=1 (`npm run screenshots`): the reference image docs/<name>.png. */
export const referenceShot = (page: Page, name: string) =>
  process.env.SCREENSHOTS ? page.screenshot({ path: `docs/${name}.png` }) : undefined

/**
 * Every control of the element that is on screen and smaller than 44×44 CSS px (a comfortable
 * tap), described for the failure message.
 */
export const smallTapTargets = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('paysession-checkout')!.shadowRoot!
    const controls = root.querySelectorAll<HTMLElement>(
      'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])',
    )
    return [...controls].flatMap((control) => {
      const { width, height } = control.getBoundingClientRect()
      if (!width && !height) return [] // not rendered: the closed dialog
      return width < 44 || height < 44
        ? [`"${control.textContent?.trim()}" ${Math.round(width)}×${Math.round(height)}`]
        : []
    })
  })

/** How many ERC-20 Transfer logs went to the session's one-time wallet, read from the chain. */
export async function transfersTo(session: Session): Promise<number> {
  const read = await fetch(`${env.api}/api/v1/payment-sessions/${session.paymentSessionId}`, {
    headers: { authorization: `Bearer ${env.apiKey}` },
  })
  const otw: string = (await read.json()).oneTimeWalletAddress
  const response = await fetch(env.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getLogs',
      params: [
        {
          fromBlock: '0x0',
          topics: [
            '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
            null,
            `0x${otw.slice(2).toLowerCase().padStart(64, '0')}`,
          ],
        },
      ],
    }),
  })
  return ((await response.json()).result as unknown[]).length
}
