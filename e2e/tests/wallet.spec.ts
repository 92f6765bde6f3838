// The customer and their wallet: declines, too little money, no gas, the wrong network.
import { expect, test } from '@playwright/test'
import {
  balanceOf,
  chain,
  createOrder,
  customers,
  expectPaidOnce,
  expectTransfers,
  expectWebhooks,
  getSession,
  parking,
  payWithCli,
  sendToken,
  setEthBalance,
  transfersTo,
  units,
} from '../support/demo.js'
import {
  chooseToken,
  connect,
  countSends,
  currentStep,
  dialog,
  expectPaidView,
  openCheckout,
  payButton,
  recorded,
  reviewPayButton,
  state,
  stepText,
  waitForStep,
  walletChainId,
  walletDialog,
  walletPending,
} from '../support/widget.js'

test('rejects in the wallet, then pays', async ({ page }, testInfo) => {
  const order = await createOrder('notebook')
  const { errors } = await openCheckout(page, order.path, 0, 'ask')
  const sends = countSends(page)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await state(page, testInfo, '1-choose-wallet')
  await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
  // The wallet asks to connect: the widget waits, and cannot be closed meanwhile.
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'connect')
  await waitForStep(page, 'connecting')
  await expect(stepText(page, 'Connecting to your wallet…')).toBeVisible()
  await state(page, testInfo, '2-connecting-wallet-prompt')
  await walletDialog(page).locator('.approve').click()
  await waitForStep(page, 'chooseToken')
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'send')
  await expect(walletDialog(page)).toContainText('12.00 USDC')
  await waitForStep(page, 'confirmInWallet')
  await expect(stepText(page, 'Confirm the payment in your wallet')).toBeVisible()
  await state(page, testInfo, '3-confirm-in-wallet')
  await walletDialog(page).locator('.reject').click()
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'The request was declined in your wallet.',
  )
  await state(page, testInfo, '4-declined')
  expect(await transfersTo((await getSession(order.id)).oneTimeWalletAddress)).toHaveLength(0)
  expect(sends).toHaveLength(0)
  // Second try, approved.
  await reviewPayButton(page).click()
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'send')
  await walletDialog(page).locator('.approve').click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
  await expectWebhooks(order.id, ['CREATED', 'PENDING', 'FUNDED'])
  const { events } = await recorded(page)
  expect(events.filter((e) => e.type === 'paysession-error').map((e) => e.detail.code)).toEqual([
    'USER_REJECTED',
  ])
  expect(errors).toEqual([])
})

test('insufficient balance: marked before paying, caught at pay time, paid with another coin', async ({
  page,
}, testInfo) => {
  // Customer 3 is this test's alone: its stablecoins are moved away and back.
  const customer = customers[3]
  const order = await createOrder('notebook') // 12.00 USD
  await openCheckout(page, order.path, 3)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  // The balance drops after the review (spent elsewhere): Pay must not open the wallet.
  const usdc = await balanceOf('USDC', customer)
  await sendToken(customer, 'USDC', parking, usdc - units('5.00'))
  await reviewPayButton(page).click()
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  const usdcButton = dialog(page).getByRole('button', { name: /^USDC/ })
  await expect(usdcButton).toBeDisabled()
  await expect(usdcButton).toContainText('Balance too low')
  await expect(dialog(page).getByRole('button', { name: /^USDT/ })).toBeEnabled()
  await state(page, testInfo, '1-insufficient-at-pay')
  expect(await walletPending(page)).toEqual([])
  expect(sends).toHaveLength(0)

  // Nothing payable at all: both coins too low.
  const usdt = await balanceOf('USDT', customer)
  await sendToken(customer, 'USDT', parking, usdt - units('1.00'))
  await page.reload()
  await payButton(page).click()
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('button', { name: /^USDC/ })).toBeDisabled()
  await expect(dialog(page).getByRole('button', { name: /^USDT/ })).toBeDisabled()
  await expect(reviewPayButton(page)).toHaveCount(0)
  await state(page, testInfo, '2-all-too-low')

  // USDT comes back: the customer pays with it.
  await sendToken(parking, 'USDT', customer, usdt - units('1.00'))
  await page.reload()
  await payButton(page).click()
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('button', { name: /^USDT/ })).toBeEnabled()
  await chooseToken(page, 'USDT')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  const session = await expectPaidOnce(order.id)
  expect(session.tokenSymbol).toBe('USDT')
  const [log] = await expectTransfers(session.oneTimeWalletAddress, 1)
  expect(log!.args.from?.toLowerCase()).toBe(customer.toLowerCase())
  expect(sends).toHaveLength(1)
  await sendToken(parking, 'USDC', customer, usdc - units('5.00'))
})

// Both use customer 4 (its ETH is set to zero and back): one after the other, in one worker.
test.describe('zero gas balance', () => {
  test.describe.configure({ mode: 'default' })

  test('the widget warns, and nothing is sent', async ({ page }, testInfo) => {
    const customer = customers[4] // this test's alone: its ETH is set to zero and back
    await setEthBalance(customer, 0n)
    try {
      const order = await createOrder('notebook')
      await openCheckout(page, order.path, 4)
      const sends = countSends(page)
      await connect(page)
      await expect(
        dialog(page).getByText('Your wallet has no ETH to pay the network fee.'),
      ).toBeVisible()
      await state(page, testInfo, '1-gas-warning')
      await chooseToken(page, 'USDC')
      await reviewPayButton(page).click()
      // The wallet (anvil) refuses to send without gas: an error, no transfer.
      await waitForStep(page, 'failed')
      await expect(dialog(page).getByRole('alert')).toHaveText('Your wallet reported an error.')
      await state(page, testInfo, '2-wallet-error')
      expect(sends).toHaveLength(1) // asked, refused by the node
      const session = await getSession(order.id)
      expect(session.status).toBe('CREATED')
      expect(await transfersTo(session.oneTimeWalletAddress)).toHaveLength(0)
    } finally {
      await setEthBalance(customer, 10n ** 22n)
    }
  })

  test('gasless: no ETH at all, the customer signs and the shop’s relay pays the gas', async ({
    page,
  }, testInfo) => {
    const customer = customers[4]
    await setEthBalance(customer, 0n)
    try {
      const order = await createOrder('notebook')
      const { errors } = await openCheckout(page, order.path, 4)
      const sends = countSends(page)
      await connect(page)
      // Not a dead end: the notice names the token that can be paid without the fee.
      await expect(
        dialog(page).getByText(
          'Your wallet has no ETH to pay the network fee. With USDC you can pay without network fees.',
        ),
      ).toBeVisible()
      await chooseToken(page, 'USDC')
      await expect(
        dialog(page).getByText('Your wallet has no ETH to pay the network fee.', { exact: true }),
      ).toBeVisible()
      const gasless = dialog(page).getByRole('button', { name: 'Pay without network fees' })
      await expect(gasless).toBeVisible()
      await expect(dialog(page).getByText('the shop pays the network fee')).toBeVisible()
      await state(page, testInfo, '1-gasless-offer')
      await gasless.click()
      await waitForStep(page, 'paid')
      await expectPaidView(page)
      await state(page, testInfo, '2-gasless-paid')
      const session = await expectPaidOnce(order.id)
      expect(session.userAddress?.toLowerCase()).toBe(customer.toLowerCase())
      // The wallet signed and sent nothing: the relay's transaction paid, the customer has no ETH.
      expect(sends).toHaveLength(0)
      expect(await chain.getBalance({ address: customer })).toBe(0n)
      const { events } = await recorded(page)
      expect(events.filter((e) => e.type === 'paysession-funding-sent')).toHaveLength(1)
      expect(errors).toEqual([])
    } finally {
      await setEthBalance(customer, 10n ** 22n)
    }
  })

  test('then gas arrives: the customer can pay right away', async ({ page }, testInfo) => {
    const customer = customers[4]
    await setEthBalance(customer, 0n)
    try {
      const order = await createOrder('notebook')
      await openCheckout(page, order.path, 4)
      await connect(page)
      await chooseToken(page, 'USDC')
      await reviewPayButton(page).click()
      await waitForStep(page, 'failed')
      await setEthBalance(customer, 10n ** 22n)
      await dialog(page).getByRole('button', { name: 'Try again' }).click()
      await waitForStep(page, ['chooseToken', 'review', 'waitingForService', 'confirmInWallet'])
      await state(page, testInfo, '1-after-try-again', false)
      await expect(dialog(page)).not.toContainText('Payment sent', { timeout: 1_000 })
      if ((await currentStep(page)) === 'chooseToken') await chooseToken(page, 'USDC')
      await reviewPayButton(page).click()
      await waitForStep(page, 'paid')
      await expectTransfers((await getSession(order.id)).oneTimeWalletAddress, 1)
    } finally {
      await setEthBalance(customer, 10n ** 22n)
    }
  })
})

test('the review appears whole: Pay never shows before the gasless button below it', async ({
  page,
}) => {
  // The gasless button's chunk is held: a review without it would move Pay once it arrives.
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/cdn/gasless-*.js', async (route) => {
    await held
    await route.continue()
  })
  const order = await createOrder('notebook')
  await openCheckout(page, order.path, 0)
  await connect(page)
  await chooseToken(page, 'USDC')
  await waitForStep(page, 'review')
  await expect(dialog(page).getByText('Loading…')).toBeVisible()
  await expect(reviewPayButton(page)).toHaveCount(0)
  release()
  await expect(reviewPayButton(page)).toBeVisible()
  await expect(dialog(page).getByRole('button', { name: 'Pay without network fees' })).toBeVisible()
})

test('wallet on the wrong chain: switched, then paid', async ({ page }, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path, 0)
  const sends = countSends(page)
  // The customer's wallet is on Ethereum mainnet.
  await page.evaluate(() => (window as any).__sandboxWallet.switchChain('0x1'))
  expect(await walletChainId(page)).toBe('0x1')
  await connect(page)
  expect(
    await page.evaluate(() => (document.querySelector('paysession-checkout') as any).state.chainId),
  ).toBe(1)
  await chooseToken(page, 'USDC')
  await state(page, testInfo, '1-review-wrong-chain', false)
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  expect(await walletChainId(page)).toBe('0x7a69')
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
})

test('gasless from a terminal: `sandbox pay --gasless` funds a session through the relayer', async () => {
  const order = await createOrder('mug')
  const out = await payWithCli(order.id, '--gasless', '--customer', '2')
  expect(out).toMatch(/by an authorization the relayer 0x[0-9a-fA-F]{40} submitted/)
  const session = await expectPaidOnce(order.id)
  expect(session.userAddress?.toLowerCase()).toBe(customers[2].toLowerCase())
  const receipt = await chain.getTransactionReceipt({ hash: session.fundingTransactionHash! })
  expect(receipt.from.toLowerCase()).not.toBe(customers[2].toLowerCase())
})
