import { expect, type Page, test } from '@playwright/test'
import { createSession, dialog, env, events, openPage, payButton, waitForStep } from './support.js'

// The object properties as each framework's usual binding sets them: JSON text in the attribute
// (server-rendered HTML, plain pages), the kebab-case name as a property (Vue's `:rpc-urls`,
// Svelte's and Preact's `rpc-urls={…}`: they set a name the element has as a property), and the
// mistake of an object written as text (`[object Object]`), which must be a typed error.

const element = (page: Page) => page.locator('paysession-checkout')
const configErrors = async (page: Page) =>
  (await events(page)).filter((e) => e.type === 'paysession-error').map((e) => e.detail)

test('rpc-urls as JSON text: the checkout uses it (an unreachable one is named in the error)', async ({
  page,
}) => {
  const session = await createSession('3.00', 'USD')
  await openPage(page, session, {
    rpc: '',
    attributes: { 'rpc-urls': JSON.stringify({ 31337: 'http://127.0.0.1:9' }) },
  })
  expect(await element(page).evaluate((el: any) => el.rpcUrls)).toEqual({
    31337: 'http://127.0.0.1:9',
  })
  await payButton(page).click()
  await waitForStep(page, 'failed')
  const error = (await configErrors(page)).find((e) => e.code === 'CHAIN_UNAVAILABLE')
  expect(error?.details).toContain('The RPC http://127.0.0.1:9 for LOCAL (chain id 31337)')
})

test('Vue\'s :rpc-urls="{…}": the kebab-case name is a property, the payment reads the chain through it', async ({
  page,
}) => {
  const session = await createSession('3.00', 'USD')
  await openPage(page, session, { rpc: '' })
  const seen = await element(page).evaluate((old: any, rpc) => {
    // A fresh element, bound as a framework renders it: its properties before it is connected.
    const el = document.createElement('paysession-checkout') as any
    for (const name of ['session-id', 'session-token', 'api-base'])
      el.setAttribute(name, old.getAttribute(name))
    // What Vue, Svelte, Preact and React 19 check before setting a bound name as a property.
    const isProperty = 'rpc-urls' in el
    if (isProperty) el['rpc-urls'] = { 31337: rpc }
    else el.setAttribute('rpc-urls', String({ 31337: rpc }))
    old.replaceWith(el)
    return { isProperty, attribute: el.getAttribute('rpc-urls'), rpcUrls: el.rpcUrls }
  }, env.rpc)
  expect(seen).toEqual({ isProperty: true, attribute: null, rpcUrls: { 31337: env.rpc } })
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('button', { name: /USDC/ })).toBeEnabled()
  expect(await configErrors(page)).toEqual([])
})

test('an object written as text ([object Object]), broken JSON, text for a config: INVALID_CONFIG, the property stays unset', async ({
  page,
}) => {
  const session = await createSession('3.00', 'USD')
  const logged: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text())
  })
  await openPage(page, session, { rpc: '' })
  const values = await element(page).evaluate(async (el: any) => {
    el.setAttribute('rpc-urls', String({ 1: 'https://rpc.example' }))
    el.setAttribute('tokens', '{"BASE": [')
    el['wagmi-config'] = 'my-config'
    await new Promise((resolve) => setTimeout(resolve))
    return { rpcUrls: el.rpcUrls, tokens: el.tokens, wagmiConfig: el.wagmiConfig }
  })
  expect(values).toEqual({ rpcUrls: undefined, tokens: undefined, wagmiConfig: undefined })
  const errors = await configErrors(page)
  expect(errors).toEqual([
    expect.objectContaining({ code: 'INVALID_CONFIG', retryable: false }),
    expect.objectContaining({ code: 'INVALID_CONFIG', retryable: false }),
    expect.objectContaining({ code: 'INVALID_CONFIG', retryable: false }),
  ])
  expect(errors[0].details).toContain(
    'rpc-urls="[object Object]" (an object written as text): not JSON. Bind the property rpcUrls or rpc-urls (Vue :rpc-urls',
  )
  expect(errors[1].details).toContain('tokens="{"BASE": [": not JSON')
  expect(errors[2].details).toContain('wagmi-config="my-config": not text')
  expect(logged.filter((text) => text.includes('INVALID_CONFIG'))).toHaveLength(3)
})

test('a server-rendered [object Object] that the framework sets right at once is not an error', async ({
  page,
}) => {
  const session = await createSession('3.00', 'USD')
  await openPage(page, session, { rpc: '' })
  const rpcUrls = await element(page).evaluate(async (el: any, rpc) => {
    // Hydration: the HTML's attribute first, then the framework's property in the same task.
    el.setAttribute('rpc-urls', '[object Object]')
    el['rpc-urls'] = { 31337: rpc }
    await new Promise((resolve) => setTimeout(resolve))
    return el.rpcUrls
  }, env.rpc)
  expect(rpcUrls).toEqual({ 31337: env.rpc })
  expect(await configErrors(page)).toEqual([])
})
