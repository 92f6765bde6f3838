import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  CheckoutSession,
  createCheckout,
  createMemoryStorage,
  getSession,
  pathsFrom,
  readPaymentRecord,
} from '../src/exports/index.js'
import {
  captureAll,
  connectAndChoose,
  createSession,
  createTestWallet,
  mockWagmi,
  paySessionConfig,
  recordSteps,
  type Sandbox,
  startSandbox,
  testWalletWagmi,
  transfersTo,
  waitForStep,
  withCheckout,
} from './support.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

describe('checkout controller against the sandbox', () => {
  test.each([
    ['USD', 'USDC', '12.50'],
    ['USD', 'USDT', '7.25'], // transfer returns nothing
    ['EUR', 'EURC', '3.10'],
  ] as const)('happy path: %s session paid with %s', async (currency, symbol, amount) => {
    const customer = sb.customers[1]!
    const session = await createSession(sb, amount, currency)
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    await withCheckout(config, session, async (checkout, steps) => {
      const start = await waitForStep(checkout, 'chooseWallet')
      expect(start.wallets.map((w) => w.id)).toEqual(['mock'])
      expect(start.network?.name).toBe('LOCAL')
      expect(start.amount).toBe(amount)

      await checkout.connect('mock')
      // A session that accepts one token (EUR: EURC) has nothing to choose: straight to review.
      const choose = await waitForStep(checkout, currency === 'EUR' ? 'review' : 'chooseToken')
      expect(choose.account).toBe(customer.address)
      const token = choose.tokens.find((t) => t.symbol === symbol)!
      expect(token.sufficient).toBe(true)
      expect(token.balance).toBeGreaterThan(0n)
      expect(choose.gasWarning).toBe(false)
      if (currency === 'EUR') {
        expect(choose.tokens.map((t) => t.symbol)).toEqual(['EURC'])
        expect(choose.selectedToken).toBe('EURC')
      } else checkout.selectToken(symbol)
      expect(checkout.getState().step).toBe('review')
      await checkout.pay()
      const paid = await waitForStep(checkout, 'paid')
      expect(paid.hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(paid.explorerTxUrl).toBeUndefined() // LOCAL has no explorer
      expect(steps).toEqual(
        expect.arrayContaining([
          'loading',
          'chooseWallet',
          'connecting',
          ...(currency === 'EUR' ? [] : ['chooseToken']),
          'review',
          'confirmInWallet',
          'submitted',
        ]),
      )
      expect(steps.includes('chooseToken')).toBe(currency !== 'EUR')

      const transfers = await transfersTo(
        sb,
        sb.tokens[symbol].address,
        session.oneTimeWalletAddress,
      )
      expect(transfers).toHaveLength(1)
      expect(transfers[0]!.transactionHash).toBe(paid.hash)
      expect(transfers[0]!.args.value).toBe(BigInt(Math.round(Number(amount) * 100)) * 10_000n)
      const after = await getSession(config, {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      })
      expect(after.status).toBe('FUNDED')
      expect(after.tokenSymbol).toBe(symbol)
      expect(readPaymentRecord(config.storage, session.paymentSessionId)).toBeUndefined()

      await captureAll(sb, session.paymentSessionId, amount)
      await waitForStep(checkout, 'completed')
    })
  })

  test('review Pay: the chain is asked while the status is read, in the same round trip', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '2.00')
    const balanceOf = `0x70a08231${customer.address.slice(2).toLowerCase().padStart(64, '0')}`
    let askedBalance = () => {}
    const balanceAsked = new Promise<void>((resolve) => {
      askedBalance = resolve
    })
    // After Pay, each status read answers only once the chain was asked for the payer's balance
    // (or after 2 s): a payment asking the chain after the read shows as a read that timed out.
    let paying = false
    const reads: ('with the chain' | 'timed out')[] = []
    const gated: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!paying || !String(input).includes(session.paymentSessionId)) return response
      const timeout = new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), 2000))
      reads.push(await Promise.race([balanceAsked.then(() => 'with the chain' as const), timeout]))
      return response
    }
    const wagmi = mockWagmi(sb, customer.address, {
      onRpc: (body) => {
        if (paying && body.includes(balanceOf)) askedBalance()
      },
    })
    const config = paySessionConfig(sb, wagmi, { fetch: gated })
    const checkout = createCheckout(config, {
      sessionId: session.paymentSessionId,
      sessionToken: session.paymentSessionToken,
    })
    try {
      await connectAndChoose(checkout)
      paying = true
      await checkout.pay()
      await waitForStep(checkout, 'paid')
      expect(reads.length).toBeGreaterThan(0)
      expect(reads).not.toContain('timed out')
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    } finally {
      checkout.destroy()
    }
  })

  test("the page's own read, a moment old, starts the checkout without a second read; an older one, or another session's, is read again", async () => {
    const session = await createSession(sb, '1.25')
    const other = await createSession(sb, '1.50')
    const read = (s: typeof session) =>
      getSession(paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address)), {
        sessionId: s.paymentSessionId,
        sessionToken: s.paymentSessionToken,
      })
    const [initialSession, otherSession] = await Promise.all([read(session), read(other)])
    // Every read of the session waits until the test lets it through.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let reads = 0
    const held: typeof fetch = async (input, init) => {
      if (String(input).includes(session.paymentSessionId)) {
        reads++
        await released
      }
      return fetch(input, init)
    }
    const start = (handed: typeof initialSession, updatedAt: number) =>
      createCheckout(
        paySessionConfig(sb, mockWagmi(sb, sb.customers[0]!.address), { fetch: held }),
        {
          sessionId: session.paymentSessionId,
          sessionToken: session.paymentSessionToken,
          initialSession: handed,
          initialSessionUpdatedAt: updatedAt,
        },
      )
    const fresh = start(initialSession, Date.now())
    const stale = start(initialSession, Date.now() - 60_000) // polling.interval is 100 ms here
    const mixedUp = start(otherSession, Date.now())
    try {
      const state = await waitForStep(fresh, 'chooseWallet')
      expect(state.session).toEqual(initialSession)
      expect(stale.getState().step).toBe('loading')
      expect(mixedUp.getState().step).toBe('loading')
      expect(reads).toBeGreaterThanOrEqual(3) // the fresh one's polling, and the other two's loads
      release()
      expect((await waitForStep(stale, 'chooseWallet')).session?.amount).toBe('1.25')
      expect((await waitForStep(mixedUp, 'chooseWallet')).session?.amount).toBe('1.25')
    } finally {
      release()
      for (const checkout of [fresh, stale, mixedUp]) checkout.destroy()
    }
  })

  test('declined in the wallet, then retry pays once', async () => {
    const customer = sb.customers[2]!
    const session = await createSession(sb, '5.00')
    const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address)
    const config = paySessionConfig(sb, testWalletWagmi(sb, provider))
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout, 'testWallet')
      wallet.rejectNext = true
      await checkout.pay()
      const declined = checkout.getState()
      expect(declined.step).toBe('review')
      expect(declined.error?.code).toBe('USER_REJECTED')
      expect(declined.error?.shortMessage).toMatch(/declined/)
      expect(declined.canRetry).toBe(true)
      expect(readPaymentRecord(config.storage, session.paymentSessionId)).toBeUndefined()
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(0)

      await checkout.retry()
      await waitForStep(checkout, 'paid')
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    })
  })

  test('insufficient balance is refused before the wallet opens', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '20000.00') // customers hold 10,000 of each
    const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address)
    const config = paySessionConfig(sb, testWalletWagmi(sb, provider))
    await withCheckout(config, session, async (checkout) => {
      await waitForStep(checkout, 'chooseWallet')
      await checkout.connect('testWallet')
      const choose = await waitForStep(checkout, 'chooseToken')
      expect(choose.tokens.every((t) => !t.sufficient)).toBe(true)
      expect(choose.selectedToken).toBeUndefined()
      checkout.selectToken('USDC')
      expect(checkout.getState()).toMatchObject({
        step: 'chooseToken',
        error: { code: 'INSUFFICIENT_BALANCE' },
      })
      await checkout.pay() // not in review: nothing happens
      expect(wallet.requests.some((r) => r.method === 'eth_sendTransaction')).toBe(false)
    })
  })

  test('wrong chain: the wallet is switched to the session network before paying', async () => {
    const customer = sb.customers[4]!
    const session = await createSession(sb, '1.00')
    const wagmi = mockWagmi(sb, customer.address, { startOn: 'other' })
    const config = paySessionConfig(sb, wagmi)
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout)
      await checkout.pay()
      await waitForStep(checkout, 'paid')
      expect(wagmi.state.connections.get(wagmi.state.current!)?.chainId).toBe(31337)
    })
  })

  test('wrong chain, switch declined: WRONG_NETWORK, nothing sent, retry allowed', async () => {
    const customer = sb.customers[4]!
    const session = await createSession(sb, '1.00')
    const wagmi = mockWagmi(sb, customer.address, {
      startOn: 'other',
      features: { switchChainError: true },
    })
    const config = paySessionConfig(sb, wagmi)
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout)
      await checkout.pay()
      expect(checkout.getState()).toMatchObject({
        step: 'review',
        canRetry: true,
        error: { code: 'WRONG_NETWORK' },
      })
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(0)
    })
  })

  test('a wallet that does not know the network gets it added, then pays', async () => {
    const customer = sb.customers[0]!
    const session = await createSession(sb, '2.00')
    const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address, [1337])
    const config = paySessionConfig(sb, testWalletWagmi(sb, provider))
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout, 'testWallet')
      await checkout.pay()
      await waitForStep(checkout, 'paid')
      const add = wallet.requests.find((r) => r.method === 'wallet_addEthereumChain')
      expect(add?.params).toEqual([
        expect.objectContaining({ chainId: '0x7a69', rpcUrls: [sb.rpcUrl] }),
      ])
    })
  })

  test('reload with an authorised wallet: reconnects and goes straight to the token choice', async () => {
    const customer = sb.customers[0]!
    const session = await createSession(sb, '1.00')
    const wagmi = mockWagmi(sb, customer.address, {
      features: { defaultConnected: true, reconnect: true },
    })
    await withCheckout(paySessionConfig(sb, wagmi), session, async (checkout, steps) => {
      const state = await waitForStep(checkout, 'chooseToken')
      expect(state.account).toBe(customer.address)
      expect(state.selectedToken).toBe('USDC') // the session's token, preselected
      expect(steps).not.toContain('chooseWallet')
      await checkout.disconnect()
      expect(checkout.getState()).toMatchObject({ step: 'chooseWallet', account: undefined })
    })
  })

  test('manual payment: the controller follows the status to "paid"', async () => {
    const session = await createSession(sb, '2.50')
    await withCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address)),
      session,
      async (checkout) => {
        await waitForStep(checkout, 'chooseWallet')
        checkout.payManually()
        const manual = checkout.getState()
        expect(manual.step).toBe('manual')
        expect(manual.session?.oneTimeWalletAddress).toBe(session.oneTimeWalletAddress)
        await sb.pay(session.paymentSessionId, { token: 'USDT' })
        const paid = await waitForStep(checkout, 'paid')
        expect(paid.session?.tokenSymbol).toBe('USDT')
      },
    )
  })

  test('manual payment, then back to a wallet after all', async () => {
    const session = await createSession(sb, '2.50')
    await withCheckout(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address)),
      session,
      async (checkout) => {
        await waitForStep(checkout, 'chooseWallet')
        checkout.payManually()
        expect(checkout.getState().step).toBe('manual')
        await checkout.connect('mock')
        const choose = await waitForStep(checkout, 'chooseToken')
        expect(choose.tokens.map((t) => t.symbol)).toEqual(['USDC', 'USDT'])
      },
    )
  })
})

describe('docs/core.md', () => {
  test('the ten-line vanilla JS example pays a session', async () => {
    const session = await createSession(sb, '1.25')
    const { paymentSessionId: sessionId, paymentSessionToken: sessionToken } = session
    const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[2]!.address))
    // Stand-ins for the page's elements.
    const status = { textContent: '' }
    const payButton = { hidden: true, onclick: () => {} }
    const connectButton = { onclick: () => {} }

    const checkout = createCheckout(config, { sessionId, sessionToken })
    checkout.subscribe((s) => {
      status.textContent = s.error?.shortMessage ?? s.step
      payButton.hidden = s.step !== 'review'
      if (s.step === 'chooseToken' && s.selectedToken && !s.error)
        checkout.selectToken(s.selectedToken)
    })
    connectButton.onclick = () => checkout.connect()
    payButton.onclick = () => checkout.pay()

    try {
      await waitForStep(checkout, 'chooseWallet')
      connectButton.onclick()
      await waitForStep(checkout, 'review')
      expect(payButton.hidden).toBe(false)
      payButton.onclick()
      await waitForStep(checkout, 'paid')
      expect(status.textContent).toBe('paid')
      expect(payButton.hidden).toBe(true)
    } finally {
      checkout.destroy()
    }
  })
})

describe('never twice', () => {
  test('double click sends one transfer', async () => {
    const customer = sb.customers[1]!
    const session = await createSession(sb, '4.00')
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout)
      await Promise.all([checkout.pay(), checkout.pay(), checkout.pay()])
      await waitForStep(checkout, 'paid')
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    })
  })

  test('two tabs pay at the same moment: one transfer, the other tab follows it', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '4.50')
    const storage = createMemoryStorage() // localStorage is shared between tabs
    const tabs = [0, 1].map(() =>
      createCheckout(paySessionConfig(sb, mockWagmi(sb, customer.address), { storage }), {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      }),
    )
    try {
      for (const tab of tabs) {
        await connectAndChoose(tab)
      }
      await Promise.all(tabs.map((tab) => tab.pay()))
      await Promise.all(tabs.map((tab) => waitForStep(tab, 'paid')))
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    } finally {
      for (const tab of tabs) tab.destroy()
    }
  })

  test('reload while the wallet prompt is open: the new page resumes, one transfer on chain', async () => {
    const customer = sb.customers[2]!
    const session = await createSession(sb, '6.00')
    const storage = createMemoryStorage() // shared: the same localStorage after a reload
    const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address)
    const first = createCheckout(paySessionConfig(sb, testWalletWagmi(sb, provider), { storage }), {
      sessionId: session.paymentSessionId,
      sessionToken: session.paymentSessionToken,
    })
    await connectAndChoose(first, 'testWallet')
    wallet.holdNext()
    void first.pay()
    await waitForStep(first, 'confirmInWallet')
    await expect.poll(() => wallet.pendingPrompts).toBe(1)
    const record = readPaymentRecord(storage, session.paymentSessionId)
    expect(record).toMatchObject({ state: 'prompting', token: 'USDC', from: customer.address })
    expect(JSON.stringify(record)).not.toContain(session.paymentSessionToken)
    first.destroy() // the page goes away; the wallet prompt stays open

    const second = createCheckout(
      paySessionConfig(sb, testWalletWagmi(sb, provider), { storage }),
      {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      },
    )
    try {
      const resumed = await waitForStep(second, 'waitingForService')
      // Nothing failed: a prompt may still be answered, and the page says until when.
      expect(resumed.error).toBeUndefined()
      expect(resumed.canRetry).toBe(false)
      expect(resumed.hash).toBeUndefined()
      expect(resumed.retryAt).toBe(record!.createdAt + 120_000)
      await second.pay() // not offered: does nothing
      expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)

      wallet.release() // the customer confirms in the wallet after all
      await waitForStep(second, 'paid')
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    } finally {
      second.destroy()
    }
  })

  test('reload while the wallet prompt is open, prompt abandoned: payable again by itself when the time comes', async () => {
    const customer = sb.customers[2]!
    const session = await createSession(sb, '6.50')
    const storage = createMemoryStorage()
    const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address)
    const first = createCheckout(paySessionConfig(sb, testWalletWagmi(sb, provider), { storage }), {
      sessionId: session.paymentSessionId,
      sessionToken: session.paymentSessionToken,
    })
    await connectAndChoose(first, 'testWallet')
    wallet.holdNext() // the prompt stays open, and is never answered
    void first.pay()
    await expect.poll(() => wallet.pendingPrompts).toBe(1)
    first.destroy()

    // On the sandbox's clock, which the test moves past the prompt's time instead of waiting.
    const second = createCheckout(
      paySessionConfig(sb, testWalletWagmi(sb, provider), {
        storage,
        polling: { clock: sb.clock },
      }),
      {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
        staleAfter: 2_000,
      },
    )
    const steps = recordSteps(second)
    try {
      const waiting = await waitForStep(second, 'waitingForService')
      expect(waiting.error).toBeUndefined()
      expect(waiting.retryAt).toBeGreaterThan(Date.now())
      sb.clock.advance(2)
      // No click: when the time comes the payment is offered again.
      const offered = await waitForStep(second, ['chooseWallet', 'chooseToken'])
      expect(offered.retryAt).toBeUndefined()
      expect(steps).not.toContain('failed')
      expect(readPaymentRecord(storage, session.paymentSessionId)).toBeUndefined()
    } finally {
      second.destroy()
    }
  })

  test('reload after the hash: a fresh controller follows the payment instead of offering one', async () => {
    const customer = sb.customers[3]!
    const session = await createSession(sb, '8.00')
    const storage = createMemoryStorage()
    const first = createCheckout(
      paySessionConfig(sb, mockWagmi(sb, customer.address), { storage }),
      {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      },
    )
    await connectAndChoose(first)
    void first.pay()
    const submitted = await waitForStep(first, 'submitted')
    first.destroy()

    const second = createCheckout(
      paySessionConfig(sb, mockWagmi(sb, customer.address), { storage }),
      {
        sessionId: session.paymentSessionId,
        sessionToken: session.paymentSessionToken,
      },
    )
    const steps = recordSteps(second)
    try {
      const paid = await waitForStep(second, 'paid')
      expect(steps).not.toContain('chooseWallet')
      expect(steps).not.toContain('review')
      expect(paid.hash ?? submitted.hash).toBe(submitted.hash)
      expect(
        await transfersTo(sb, sb.tokens.USDC.address, session.oneTimeWalletAddress),
      ).toHaveLength(1)
    } finally {
      second.destroy()
    }
  })

  test('paid from elsewhere (manual transfer to the OTW): no payment is offered', async () => {
    const customer = sb.customers[4]!
    const session = await createSession(sb, '3.00')
    await sb.pay(session.paymentSessionId, { amount: '1.00' }) // a partial payment: stays PENDING
    const config = paySessionConfig(sb, mockWagmi(sb, customer.address))
    await withCheckout(config, session, async (checkout) => {
      const state = await waitForStep(checkout, 'waitingForService')
      expect(['CREATED', 'PENDING']).toContain(state.session?.status)
      expect(state.error).toBeUndefined()
    })
  })
})

describe('the rarer paths, from the one module that holds them all', () => {
  test('each path is a loader of that module, and it is never loaded before a customer takes one', async () => {
    let loads = 0
    const paths = pathsFrom(() => {
      loads++
      return import('../src/exports/paths.js')
    })
    const session = await createSession(sb, '1.50')
    const checkout = new CheckoutSession(
      paySessionConfig(sb, mockWagmi(sb, sb.customers[1]!.address)),
      { sessionId: session.paymentSessionId, sessionToken: session.paymentSessionToken, paths },
    )
    try {
      // A wallet payment, start to end, takes none of them.
      await connectAndChoose(checkout)
      await checkout.pay()
      await waitForStep(checkout, 'paid')
      expect(loads).toBe(0)
    } finally {
      checkout.destroy()
    }
    const recovery = await paths.recovery()
    expect(
      [recovery.resume, recovery.untrack, recovery.waitForPrompt].map((f) => typeof f),
    ).toEqual(['function', 'function', 'function'])
    expect(typeof (await paths.gasless!()).payWithAuthorization).toBe('function')
    expect(typeof (await paths.calls!()).sendWithCalls).toBe('function')
    expect(loads).toBe(3)
  })
})
