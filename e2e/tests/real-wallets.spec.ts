// Paying from the wallets customers really have, each backed by its real account code on the
// sandbox's chain (@paysession/wallet-stacks): a Safe 1.4.1 whose second owner signs after a
// reload, the same Safe paying without gas (its owners sign, ERC-1271; the shop's relay sends), ERC-4337 accounts whose user operations the Alto bundler submits to the EntryPoint
// (SimpleAccount on v0.8, sponsored by an ERC-7677 paymaster with no ETH at all; a Safe with
// Safe's 4337 module on v0.7; and an EOA delegated to Simple7702Account with EIP-7702). Each ends FUNDED with one transfer whose real transaction
// hash is what the checkout reported, and a final capture refunds the account that paid.

import {
  createSafeWallet,
  createSmartAccountWallet,
  type TestWallet,
} from '@paysession/wallet-stacks'
import { expect, type Page, test } from '@playwright/test'
import type { Address, Hex } from 'viem'
import { entryPoint08Address as entryPoint08 } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import {
  chain,
  createOrder,
  customers,
  env,
  expectPaidOnce,
  getSession,
  sendToken,
  setEthBalance,
  transfersFrom,
  transfersTo,
  units,
  waitForStatus,
} from '../support/demo.js'
import { injectWallet, stacks } from '../support/realWallets.js'
import {
  chooseToken,
  dialog,
  expectPaidView,
  payButton,
  recorded,
  reviewPayButton,
  stepText,
  waitForStep,
  watchPage,
} from '../support/widget.js'

// One chain and one bundler for all: the scenarios run one after the other.
test.describe.configure({ mode: 'default' })

/** Opens the order's checkout with `wallet` in the page, and picks it in the widget. */
async function openWith(page: Page, wallet: TestWallet, path: string, paymasterUrl?: string) {
  const watched = await watchPage(page)
  const injected = await injectWallet(page, wallet)
  await page.goto(`${env.demo}${path}`)
  // The merchant offers its ERC-7677 paymaster service (the `paymaster-url` attribute).
  if (paymasterUrl)
    await page.evaluate(
      (url) => document.querySelector('paysession-checkout')!.setAttribute('paymaster-url', url),
      paymasterUrl,
    )
  await expect(payButton(page)).toHaveText(/Pay /)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: wallet.info.name }).click()
  await waitForStep(page, ['chooseToken', 'review'])
  return { ...watched, ...injected }
}

/** Alto's own JSON-RPC (its debug methods hold and release user operations). */
const bundler = (method: string, params: unknown[] = []) =>
  fetch(stacks.bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then(async (r) => {
    const body = await r.json()
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  })

/** Test USDC for an account, from a sandbox customer. */
const fund = (to: Address, amount = '50.00') => sendToken(customers[4], 'USDC', to, units(amount))

/**
 * The final capture of 8.00 of the 12.00 paid: the 4.00 refund is a Transfer from the one-time
 * wallet back to the account that paid (the Safe, the smart account, the EOA), not its signer.
 */
async function expectRefundTo(sessionId: string, payer: Address) {
  const response = await fetch(
    `${env.api}/api/v1/payment-sessions/${encodeURIComponent(sessionId)}/captures`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requestId: crypto.randomUUID(),
        captureAmount: '8.00',
        isFinalCapture: true,
      }),
    },
  )
  expect(response.status).toBe(202)
  const done = await waitForStatus(sessionId, 'SUCCEEDED')
  const refunds = (await transfersFrom(done.oneTimeWalletAddress)).filter(
    (l) => l.args.to?.toLowerCase() === payer.toLowerCase(),
  )
  expect(refunds.map((l) => l.args.value)).toEqual([units('4.00')])
  expect(refunds[0]!.transactionHash).toBe(done.captures!.at(-1)!.refundTransferTransactionHash)
}

/** The call-bundle ids (EIP-5792) the checkout asked the wallet about, first one first. */
const callIds = (calls: { method: string; params: unknown }[]) =>
  calls.filter((c) => c.method === 'wallet_getCallsStatus').map((c) => (c.params as Hex[])[0]!)

/**
 * The customer sees the payment as done, and the hash the checkout reported is the real
 * transaction carrying the one Transfer of the amount from the account to the one-time wallet
 * (identified by hash and log index), never the first answer the wallet gave (a user-operation
 * hash, a safeTxHash), which `firstAnswer` reads once the payment shows as paid.
 */
async function expectReportedTransfer(
  page: Page,
  sessionId: string,
  payer: Address,
  firstAnswer: () => Hex | undefined,
  options: { reloaded?: boolean } = {},
) {
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  const first = firstAnswer()
  expect(first).toMatch(/^0x[0-9a-f]+$/i)
  const session = await expectPaidOnce(sessionId)
  expect(session.userAddress?.toLowerCase()).toBe(payer.toLowerCase())
  const [log] = await transfersTo(session.oneTimeWalletAddress)
  expect(log!.args.from?.toLowerCase()).toBe(payer.toLowerCase())
  expect(log!.transactionHash).toBe(session.fundingTransactionHash)
  expect(typeof log!.logIndex).toBe('number')
  expect(session.fundingTransactionHash).not.toBe(first)
  // What the customer is shown, and every hash this page told the service (a page reloaded
  // while the wallet still had to send reports the transfer it then finds on chain, or nothing
  // when the service saw it first).
  const shown = await page.evaluate(
    () => (document.querySelector('paysession-checkout') as any)?.state?.hash,
  )
  expect(shown).toBe(session.fundingTransactionHash)
  if (session.userSubmittedTransactionHash)
    expect(session.userSubmittedTransactionHash).toBe(session.fundingTransactionHash)
  const { events } = await recorded(page)
  const sent = events.filter((e) => e.type === 'paysession-funding-sent').map((e) => e.detail.hash)
  expect(sent).toEqual(
    options.reloaded
      ? sent.filter((h) => h === session.fundingTransactionHash)
      : [session.fundingTransactionHash],
  )
  return session
}

test('Safe 1.4.1, 2 of 2: the second owner signs after a reload; the executed transfer is reported', async ({
  page,
}) => {
  const ownerKeys: [Hex, Hex] = [generatePrivateKey(), generatePrivateKey()]
  for (const key of ownerKeys) await setEthBalance(privateKeyToAddress(key), 10n ** 18n)
  const safe = await createSafeWallet(stacks, { ownerKeys })
  await fund(safe.address)
  const order = await createOrder('notebook')
  const { errors, calls } = await openWith(page, safe, order.path)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  // The Safe answered with its proposal's safeTxHash: not a transaction, so nothing is reported.
  await waitForStep(page, 'waitingForWallet')
  await expect(stepText(page, 'Waiting for your wallet to send the payment…')).toBeVisible()
  expect(safe.proposals.size).toBe(1)
  const [safeTxHash] = [...safe.proposals.keys()]
  expect(calls.filter((c) => c.method === 'eth_sendTransaction')).toHaveLength(1)
  let session = await getSession(order.id)
  expect(session.userSubmittedTransactionHash ?? null).toBeNull()
  expect(await transfersTo(session.oneTimeWalletAddress)).toHaveLength(0)

  // The customer closes the page and comes back: the checkout still waits and offers no payment.
  await page.reload()
  await expect(payButton(page)).toHaveText('Payment in progress')
  await payButton(page).click()
  await waitForStep(page, 'waitingForWallet')
  await expect(reviewPayButton(page)).toHaveCount(0)

  // The second owner confirms in their own Safe app: their key signs and executes.
  const executed = await safe.confirm(safeTxHash!)
  session = await expectReportedTransfer(page, order.id, safe.address, () => safeTxHash, {
    reloaded: true,
  })
  expect(session.fundingTransactionHash).toBe(executed)
  expect(calls.filter((c) => c.method === 'eth_sendTransaction')).toHaveLength(1)
  await expectRefundTo(order.id, safe.address)
  expect(errors).toEqual([])
})

test('Safe 1.4.1, gasless: both owners sign the authorization as a SafeMessage (ERC-1271); the shop’s relay pays the gas', async ({
  page,
}) => {
  const ownerKeys: [Hex, Hex] = [generatePrivateKey(), generatePrivateKey()]
  const owners = ownerKeys.map(privateKeyToAddress)
  for (const owner of owners) await setEthBalance(owner, 10n ** 18n)
  const safe = await createSafeWallet(stacks, { ownerKeys })
  await fund(safe.address)
  const ownerNonces = await Promise.all(
    owners.map((address) => chain.getTransactionCount({ address })),
  )
  const order = await createOrder('notebook')
  const { errors, calls } = await openWith(page, safe, order.path)
  await chooseToken(page, 'USDC')
  // The demo's relay allows a Safe 1.4.1 that runs Safe's own code (apps/demo contractPayers.ts).
  await dialog(page).getByRole('button', { name: 'Pay without network fees' }).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  const session = await expectPaidOnce(order.id)
  expect(session.userAddress?.toLowerCase()).toBe(safe.address.toLowerCase())
  // The Safe signed (once, both owners' signatures); it sent nothing, nor did its owners.
  const signatures = calls.filter((c) => c.method === 'eth_signTypedData_v4')
  expect(signatures).toHaveLength(1)
  expect(calls.filter((c) => c.method === 'eth_sendTransaction')).toHaveLength(0)
  expect(safe.proposals.size).toBe(0)
  expect(
    await Promise.all(owners.map((address) => chain.getTransactionCount({ address }))),
  ).toEqual(ownerNonces)
  // The one Transfer is from the Safe, in a transaction the shop's relayer sent.
  const [log] = await transfersTo(session.oneTimeWalletAddress)
  expect(log!.args.from?.toLowerCase()).toBe(safe.address.toLowerCase())
  expect(log!.transactionHash).toBe(session.fundingTransactionHash)
  const receipt = await chain.getTransactionReceipt({ hash: session.fundingTransactionHash! })
  expect(owners.map((o) => o.toLowerCase())).not.toContain(receipt.from.toLowerCase())
  expect(errors).toEqual([])
})

test('ERC-4337 SimpleAccount, sponsored (ERC-7677) with no ETH: the bundle’s transaction is reported, not the user operation', async ({
  page,
}) => {
  const wallet = await createSmartAccountWallet(stacks, {
    kind: 'simple',
    ownerKey: generatePrivateKey(),
  })
  await fund(wallet.address)
  // Not even deployed yet, and no native coin anywhere near it.
  expect(await chain.getBalance({ address: wallet.address })).toBe(0n)
  expect(await chain.getCode({ address: wallet.address })).toBeUndefined()
  const order = await createOrder('notebook')
  const { errors, calls } = await openWith(page, wallet, order.path, stacks.paymasterUrl)
  await chooseToken(page, 'USDC')
  await expect(dialog(page).getByText(/no ETH to pay the network fee/)).toHaveCount(0)
  await reviewPayButton(page).click()
  await expectReportedTransfer(page, order.id, wallet.address, () => callIds(calls)[0])
  // The checkout asked the wallet to use the merchant's paymaster.
  const sendCalls = calls.filter((c) => c.method === 'wallet_sendCalls')
  expect(sendCalls).toHaveLength(1)
  const request = (sendCalls[0]!.params as any[])[0]
  expect(request.capabilities?.paymasterService?.url).toBe(stacks.paymasterUrl)
  // The paymaster paid: the account still holds no ETH, and it is deployed now.
  expect(await chain.getBalance({ address: wallet.address })).toBe(0n)
  expect(await chain.getCode({ address: wallet.address })).toMatch(/^0x6/)
  await expectRefundTo(order.id, wallet.address)
  expect(errors).toEqual([])
})

test('ERC-4337 Safe 1.4.1 with Safe4337Module (EntryPoint v0.7): its first user operation deploys it and pays', async ({
  page,
}) => {
  const wallet = await createSmartAccountWallet(stacks, {
    kind: 'safe4337',
    ownerKey: generatePrivateKey(),
  })
  expect(await chain.getCode({ address: wallet.address })).toBeUndefined()
  await setEthBalance(wallet.address, 10n ** 17n)
  await fund(wallet.address)
  const order = await createOrder('notebook')
  const { errors, calls } = await openWith(page, wallet, order.path)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await expectReportedTransfer(page, order.id, wallet.address, () => callIds(calls)[0])
  // No paymaster offered here: the wallet was not asked to use one, and the Safe paid its fee.
  const sendCalls = calls.filter((c) => c.method === 'wallet_sendCalls')
  expect(sendCalls).toHaveLength(1)
  expect((sendCalls[0]!.params as any[])[0].capabilities?.paymasterService).toBeUndefined()
  expect(await chain.getBalance({ address: wallet.address })).toBeLessThan(10n ** 17n)
  await expectRefundTo(order.id, wallet.address)
  expect(errors).toEqual([])
})

test('EIP-7702: an EOA delegated to Simple7702Account pays through wallet_sendCalls and the bundler', async ({
  page,
}) => {
  const ownerKey = generatePrivateKey()
  const wallet = await createSmartAccountWallet(stacks, { kind: 'eip7702', ownerKey })
  expect(wallet.address).toBe(privateKeyToAddress(ownerKey))
  await setEthBalance(wallet.address, 10n ** 17n)
  await fund(wallet.address)
  const order = await createOrder('notebook')
  const { errors, calls } = await openWith(page, wallet, order.path)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await expectReportedTransfer(page, order.id, wallet.address, () => callIds(calls)[0])
  // The EOA's code is now the EIP-7702 delegation designator to Simple7702Account.
  expect(await chain.getCode({ address: wallet.address })).toBe(
    '0xef0100e6cae83bde06e4c305530e199d7217f42808555b',
  )
  const session = await getSession(order.id)
  const receipt = await chain.getTransactionReceipt({ hash: session.fundingTransactionHash! })
  expect(receipt.from.toLowerCase()).not.toBe(wallet.address.toLowerCase()) // the bundler sent it
  await expectRefundTo(order.id, wallet.address)
  expect(errors).toEqual([])
})

test('two user operations in one bundle transaction pay two sessions: each is found by its own Transfer log', async ({
  browser,
}) => {
  // One after the other: the funding customer sends each transfer from its own nonce.
  const payers = []
  for (let n = 0; n < 2; n++) {
    const wallet = await createSmartAccountWallet(stacks, {
      kind: 'simple',
      ownerKey: generatePrivateKey(),
    })
    await setEthBalance(wallet.address, 10n ** 17n)
    await fund(wallet.address)
    const context = await browser.newContext()
    const page = await context.newPage()
    const order = await createOrder('notebook')
    const opened = await openWith(page, wallet, order.path)
    await chooseToken(page, 'USDC')
    payers.push({ wallet, context, page, order, ...opened })
  }
  // The bundler holds user operations until told to send: both go out in one transaction.
  await bundler('debug_bundler_setBundlingMode', ['manual'])
  try {
    for (const p of payers) {
      await reviewPayButton(p.page).click()
      await expect.poll(() => p.calls.filter((c) => c.method === 'wallet_sendCalls').length).toBe(1)
    }
    await expect
      .poll(async () => (await bundler('debug_bundler_dumpMempool', [entryPoint08])).length)
      .toBe(2)
    await bundler('debug_bundler_sendBundleNow')
  } finally {
    await bundler('debug_bundler_setBundlingMode', ['auto'])
  }
  const sessions = []
  for (const p of payers) {
    const first = () => callIds(p.calls)[0]
    sessions.push(await expectReportedTransfer(p.page, p.order.id, p.wallet.address, first))
    expect(p.errors).toEqual([])
  }
  // One transaction, two Transfers: told apart by log index, each into its own one-time wallet.
  expect(sessions[0]!.fundingTransactionHash).toBe(sessions[1]!.fundingTransactionHash)
  const logs = await Promise.all(sessions.map((s) => transfersTo(s.oneTimeWalletAddress)))
  expect(logs.map((l) => l.length)).toEqual([1, 1])
  expect(logs[0]![0]!.logIndex).not.toBe(logs[1]![0]!.logIndex)
  for (const p of payers) await p.context.close()
})

test('ERC-4337, reloaded while the user operation waits for its bundle: no second payment, then the real transaction', async ({
  page,
}) => {
  const wallet = await createSmartAccountWallet(stacks, {
    kind: 'simple',
    ownerKey: generatePrivateKey(),
  })
  await setEthBalance(wallet.address, 10n ** 17n)
  await fund(wallet.address)
  const order = await createOrder('notebook')
  const { calls } = await openWith(page, wallet, order.path)
  await chooseToken(page, 'USDC')
  await bundler('debug_bundler_setBundlingMode', ['manual'])
  let userOpHash: Hex
  try {
    await reviewPayButton(page).click()
    await expect.poll(() => callIds(calls).length).toBeGreaterThan(0)
    userOpHash = callIds(calls)[0]!
    // The wallet accepted a user operation that no transaction carries yet; the customer reloads.
    await page.reload()
    await expect(payButton(page)).toHaveText('Payment in progress')
    await payButton(page).click()
    await expect(dialog(page)).toBeVisible()
    await expect(reviewPayButton(page)).toHaveCount(0)
    expect(await transfersTo((await getSession(order.id)).oneTimeWalletAddress)).toHaveLength(0)
    await bundler('debug_bundler_sendBundleNow')
  } finally {
    await bundler('debug_bundler_setBundlingMode', ['auto'])
  }
  await expectReportedTransfer(page, order.id, wallet.address, () => userOpHash, {
    reloaded: true,
  })
  expect(calls.filter((c) => c.method === 'wallet_sendCalls')).toHaveLength(1)
  await expectRefundTo(order.id, wallet.address)
})
