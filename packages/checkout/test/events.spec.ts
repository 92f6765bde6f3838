import { expect, test } from '@playwright/test'
import {
  createSession,
  events,
  openPage,
  payButton,
  payOutside,
  payWithTestWallet,
  waitForStep,
} from './support.js'

// Event semantics (docs/spa.md, "Events"): `paysession-funding-sent` only for a transfer this page's
// wallet prompt sent; `paysession-paid` once per page load, `detail.replay` when the session was
// already paid when the page loaded it.
const ofType = async (page: Parameters<typeof events>[0], type: string) =>
  (await events(page)).filter((e) => e.type === type)

test('events: paid here, then a reload replays paid once and sends nothing', async ({ page }) => {
  const session = await createSession('3.00', 'USD')
  await openPage(page, session)
  await payWithTestWallet(page)
  const sent = await ofType(page, 'paysession-funding-sent')
  expect(sent).toHaveLength(1)
  expect(sent[0]!.detail.hash).toMatch(/^0x[0-9a-f]{64}$/)
  const paid = await ofType(page, 'paysession-paid')
  expect(paid).toHaveLength(1)
  expect(paid[0]!.detail).toMatchObject({ replay: false, hash: sent[0]!.detail.hash })

  await page.reload()
  await waitForStep(page, 'paid')
  await expect(payButton(page)).toHaveText('Paid')
  // Whatever else the page does after load (polling, the paid screen) it fires nothing more.
  await page.waitForTimeout(1500)
  expect(await ofType(page, 'paysession-funding-sent')).toEqual([])
  const replayed = await ofType(page, 'paysession-paid')
  expect(replayed).toHaveLength(1)
  expect(replayed[0]!.detail).toMatchObject({
    sessionId: session.paymentSessionId,
    amount: '3.00',
    replay: true,
  })
})

test('events: paid from outside while the page watches is not a replay and sent nothing here', async ({
  page,
}) => {
  const session = await createSession('4.00', 'USD')
  await openPage(page, session, { wallet: false })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await payOutside(session)
  await waitForStep(page, 'paid')
  await page.waitForTimeout(1500)
  expect(await ofType(page, 'paysession-funding-sent')).toEqual([])
  const paid = await ofType(page, 'paysession-paid')
  expect(paid).toHaveLength(1)
  expect(paid[0]!.detail.replay).toBe(false)
})
