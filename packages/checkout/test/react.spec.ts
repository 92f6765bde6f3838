import { expect, type Page, test } from '@playwright/test'
import {
  checkout,
  createSession,
  dialog,
  env,
  payButton,
  reviewWithTestWallet,
  type Session,
  waitForStep,
} from './support.js'
import { installWallet } from './wallet.js'

// The React wrapper (`@paysession/checkout/react`, from dist/) rendered by React 19 on a page
// bundled by vite in global-setup.ts, served with the same strict CSP.
async function openReactPage(page: Page, session: Session) {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused/i.test(message.text()))
      errors.push(message.text())
  })
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    'api-base': env.api,
    rpc: env.rpc,
  })
  await page.goto(`${env.page}/test/react/dist/index.html?${query}`)
  return { errors }
}

const calls = (page: Page, callback: string) =>
  page.evaluate(
    (name) =>
      ((window as any).__react as { callback: string; detail: any }[])
        .filter((call) => call.callback === name)
        .map((call) => call.detail),
    callback,
  )

test('React: props and re-renders reach the element', async ({ page }) => {
  const session = await createSession('12.50', 'USD')
  const { errors } = await openReactPage(page, session)
  await expect(payButton(page)).toHaveText(/Pay \$12\.50/)
  await expect.poll(() => calls(page, 'onReady')).toHaveLength(1)
  // @lit/react sets the element's declared properties (object-valued ones included) as properties.
  expect(
    await checkout(page).evaluate((el: any) => ({ id: el.sessionId, rpcUrls: el.rpcUrls })),
  ).toEqual({ id: session.paymentSessionId, rpcUrls: { 31337: env.rpc } })
  // A React state change re-renders the wrapper with locale="de".
  await page.getByRole('button', { name: 'Deutsch' }).click()
  await expect.poll(() => checkout(page).evaluate((el: any) => el.locale)).toBe('de')
  const amount = new Intl.NumberFormat('de', { style: 'currency', currency: 'USD' }).format(12.5)
  await expect(payButton(page)).toHaveText(`${amount} bezahlen`)
  await page.getByRole('button', { name: 'English' }).click()
  await expect(payButton(page)).toHaveText(/Pay \$12\.50/)
  expect(errors).toEqual([])
})

test('React: onError on a declined wallet, then onPaid end to end', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  const { errors } = await openReactPage(page, session)
  await reviewWithTestWallet(page)
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = true
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'The request was declined in your wallet.',
  )
  await expect
    .poll(() => calls(page, 'onError'))
    .toEqual([expect.objectContaining({ code: 'USER_REJECTED', retryable: true })])
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = false
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect
    .poll(() => calls(page, 'onPaid'))
    .toEqual([
      expect.objectContaining({ sessionId: session.paymentSessionId, tokenSymbol: 'USDC' }),
    ])
  const [paid] = await calls(page, 'onPaid')
  expect(paid.hash).toMatch(/^0x[0-9a-f]{64}$/)
  const steps = (await calls(page, 'onStepChange')).map((detail) => detail.step)
  expect(steps).toEqual(expect.arrayContaining(['confirmInWallet', 'paid']))
  expect(errors).toEqual([])
})
