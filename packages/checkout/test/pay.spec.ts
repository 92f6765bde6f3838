import { expect, test } from '@playwright/test'
import {
  createSession,
  dialog,
  events,
  expectAxeClean,
  openPage,
  payButton,
  shot,
  waitForStep,
} from './support.js'

test('pays with a wallet end to end, firing every event', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  const { errors } = await openPage(page, session)
  await expect(payButton(page)).toHaveText(/Pay \$10\.00/)
  await shot(page, 'button')
  await payButton(page).click()
  await expect(dialog(page)).toBeVisible()
  await waitForStep(page, 'chooseWallet')
  await shot(page, 'choose-wallet')
  await expectAxeClean(page)
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await shot(page, 'choose-token')
  await expectAxeClean(page)
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await shot(page, 'review')
  await expectAxeClean(page)
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await shot(page, 'paid')
  await expectAxeClean(page)
  const list = await events(page)
  const steps = list.filter((e) => e.type === 'paysession-step-change').map((e) => e.detail.step)
  // The transient steps pass too quickly to screenshot; their order is checked instead. Which
  // steps lie between the prompt and paid depends on who tells first that the transfer landed:
  // our own receipt (then `waitingForService`) or the service's FUNDED (straight to paid).
  expect(steps).toEqual(expect.arrayContaining(['connecting', 'confirmInWallet', 'paid']))
  const between = steps.slice(steps.indexOf('confirmInWallet') + 1, steps.indexOf('paid'))
  expect(between.length).toBeGreaterThan(0)
  for (const step of between)
    expect(['waitingForWallet', 'submitted', 'confirming', 'waitingForService']).toContain(step)
  const types = list.map((e) => e.type)
  for (const type of [
    'paysession-ready',
    'paysession-open',
    'paysession-wallet-connected',
    'paysession-token-selected',
    'paysession-funding-sent',
    'paysession-status-change',
    'paysession-paid',
  ])
    expect(types).toContain(type)
  await dialog(page).getByRole('button', { name: 'Done' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(payButton(page)).toHaveText('Paid')
  await expect(payButton(page)).toBeFocused()
  expect(errors).toEqual([])
})
