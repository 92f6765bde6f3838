// Smart-contract wallets: a smart account that speaks EIP-5792 (its bundler sends the transfer)
// and a Safe-like account whose transfer runs only after a second owner approves, maybe much later.
import { expect, test } from '@playwright/test'
import type { Address } from 'viem'
import {
  chain,
  createOrder,
  env,
  expectPaidOnce,
  getSession,
  transfersTo,
} from '../support/demo.js'
import {
  chooseToken,
  connect,
  countSends,
  dialog,
  expectPaidView,
  openCheckout,
  payButton,
  recorded,
  reviewPayButton,
  state,
  stepText,
  waitForStep,
} from '../support/widget.js'

type Info = {
  smartAccount: { address: Address; owner: Address; bundler: Address }
  safe: { address: Address; owners: [Address, Address] }
}
const info = async () =>
  (await (
    await fetch(`${env.api}/sandbox/info`, {
      headers: { authorization: `Bearer ${env.apiKey}` },
    })
  ).json()) as Info

const useAccount = (page: import('@playwright/test').Page, kind: 'smart' | 'safe') =>
  page.evaluate((k) => (window as any).__sandboxWallet.selectAccount(k), kind)

// One account each: the tests that move its funds run one after the other.
test.describe.configure({ mode: 'default' })

test('smart account: EIP-5792 call bundle, the bundler’s real transaction is reported', async ({
  page,
}, testInfo) => {
  const { smartAccount } = await info()
  const order = await createOrder('notebook')
  const { errors } = await openCheckout(page, order.path, 0)
  await useAccount(page, 'smart')
  await connect(page)
  // The account holds no ETH, but its bundler pays the fee: no "no ETH" notice.
  expect(await chain.getBalance({ address: smartAccount.address })).toBe(0n)
  await expect(dialog(page).getByRole('button', { name: /^USDC/ })).toBeEnabled()
  await expect(dialog(page).getByText(/no ETH to pay the network fee/)).toHaveCount(0)
  await chooseToken(page, 'USDC')
  await expect(dialog(page).getByText(smartAccount.address.slice(0, 6))).toBeVisible()
  await expect(dialog(page).getByText(/no ETH to pay the network fee/)).toHaveCount(0)
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await state(page, testInfo, 'smart-account-paid')
  const session = await expectPaidOnce(order.id)
  expect(session.userAddress?.toLowerCase()).toBe(smartAccount.address.toLowerCase())
  // The funding transaction is the bundler's, and that hash (not the bundle id) was reported.
  const receipt = await chain.getTransactionReceipt({ hash: session.fundingTransactionHash! })
  expect(receipt.from.toLowerCase()).toBe(smartAccount.bundler.toLowerCase())
  expect(session.userSubmittedTransactionHash).toBe(session.fundingTransactionHash)
  const { events } = await recorded(page)
  const sent = events.filter((e) => e.type === 'paysession-funding-sent')
  expect(sent.map((e) => e.detail.hash)).toEqual([session.fundingTransactionHash])
  expect(errors).toEqual([])
})

test('Safe: waits for the second owner across a reload, then paid once', async ({
  page,
}, testInfo) => {
  const { safe } = await info()
  const order = await createOrder('notebook')
  await openCheckout(page, order.path, 0)
  await useAccount(page, 'safe')
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  // The Safe answered with a proposal id: not a transaction, so not reported, and no failure.
  await waitForStep(page, 'waitingForWallet')
  await expect(stepText(page, 'Waiting for your wallet to send the payment…')).toBeVisible()
  await state(page, testInfo, 'safe-waiting-for-wallet')
  const proposals = await page.evaluate(() => (window as any).__sandboxWallet.proposals())
  expect(proposals).toHaveLength(1)
  let session = await getSession(order.id)
  expect(session.status).toMatch(/CREATED|PENDING/)
  expect(session.userSubmittedTransactionHash ?? null).toBeNull()
  expect(await transfersTo(session.oneTimeWalletAddress)).toHaveLength(0)

  // The customer closes the page and comes back: the checkout still waits, offers no new payment.
  await page.reload()
  await expect(payButton(page)).toHaveText('Payment in progress')
  await payButton(page).click()
  await waitForStep(page, 'waitingForWallet')
  await expect(reviewPayButton(page)).toHaveCount(0)

  // Later, the second owner approves: the Safe sends the transfer.
  const [executed] = await page.evaluate(() => (window as any).__sandboxWallet.approveSafe())
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  session = await expectPaidOnce(order.id)
  expect(session.fundingTransactionHash).toBe(executed)
  expect(session.userAddress?.toLowerCase()).toBe(safe.address.toLowerCase())
  expect(sends.length).toBeGreaterThanOrEqual(1) // the proposal, sent by the first owner
})

test('smart account, gasless: the owner signs for the account (ERC-1271), the relay pays gas', async ({
  page,
}) => {
  const { smartAccount } = await info()
  const order = await createOrder('mug')
  const { errors } = await openCheckout(page, order.path, 0)
  await useAccount(page, 'smart')
  await connect(page)
  await chooseToken(page, 'USDC')
  await dialog(page).getByRole('button', { name: 'Pay without network fees' }).click()
  await waitForStep(page, 'paid')
  const session = await expectPaidOnce(order.id)
  expect(session.userAddress?.toLowerCase()).toBe(smartAccount.address.toLowerCase())
  const receipt = await chain.getTransactionReceipt({ hash: session.fundingTransactionHash! })
  expect(receipt.from.toLowerCase()).not.toBe(smartAccount.bundler.toLowerCase())
  expect(errors).toEqual([])
})
