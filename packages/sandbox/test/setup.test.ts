// The chain's first setup (test tokens deployed, customers funded, test accounts) is resumable:
// a chain holding any prefix of it ends exactly complete, and a complete one is left alone.
import { createBrowserChain } from '@paysession/browser-chain'
import { type Address, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, test } from 'vitest'
import { ACCOUNTS_DEPLOYER_KEY, deployTestAccounts } from '../src/chain/accounts.js'
import { startAnvil } from '../src/chain/anvil.js'
import { readArtifacts } from '../src/chain/artifacts.js'
import { type ChainClients, createChainClients, localChain } from '../src/chain/clients.js'
import { deployTokens } from '../src/chain/deploy.js'
import { PROXY_ADMIN_KEY } from '../src/chain/fiatToken.js'
import { CUSTOMER_KEYS, customers, transferToken } from '../src/chain/pay.js'
import { DEPLOYER_KEY, erc20Abi, LOCAL_TOKENS } from '../src/chain/tokens.js'
import { createAccess } from '../src/http/access.js'
import { listenChain } from '../src/http/chainServer.js'
import { type InPageService, startInPageService } from '../src/inpage/index.js'
import { start, units } from './helpers.js'

const holders = customers().map((c) => c.address)
const FUNDED = 10_000n * 10n ** 6n
const stops: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const stop of stops.splice(0)) await stop()
})

/** Each token's code, each holder's balance of it, and the setup keys' transaction counts. */
// The deployer's transactions: the three tokens, each FiatToken's admin handover, four
// initializations and two minters, then each customer funded with each token.
const DEPLOYER_NONCE = LOCAL_TOKENS.length * (1 + holders.length) + 2 * 7

async function setupState({ publicClient }: ChainClients, extra: Address[] = []) {
  const tokens = []
  for (const token of LOCAL_TOKENS)
    tokens.push({
      symbol: token.symbol,
      code: await publicClient.getCode({ address: token.address }),
      balances: await Promise.all(
        [...holders, ...extra].map((owner) =>
          publicClient.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [owner],
          }),
        ),
      ),
    })
  const nonces = await Promise.all(
    [DEPLOYER_KEY, ACCOUNTS_DEPLOYER_KEY, PROXY_ADMIN_KEY].map((key) =>
      publicClient.getTransactionCount({ address: privateKeyToAccount(key).address }),
    ),
  )
  return { tokens, nonces }
}

test('in-page: a browser chain reloaded after any step of its first setup resumes to exactly the complete setup, and takes a payment', async () => {
  const artifacts = readArtifacts()
  const startService = async (chain: Awaited<ReturnType<typeof createBrowserChain>>) => {
    const service = await startInPageService({ provider: chain, artifacts })
    stops.push(() => service.stop())
    return service
  }
  const whole = await createBrowserChain({ accounts: CUSTOMER_KEYS })
  const complete = await setupState((await startService(whole)).chain)
  // The in-page service deploys no test accounts.
  expect(complete.nonces).toEqual([DEPLOYER_NONCE, 0, 6])
  for (const token of complete.tokens) {
    expect(token.code?.length).toBeGreaterThan(2)
    expect(token.balances).toEqual(holders.map(() => FUNDED))
  }

  // The journal is what the hosted demo saves step by step: a reload keeps any prefix of it.
  const journal = whole.journal()
  let service: InPageService | undefined
  for (let kept = 1; kept < journal.length; kept++) {
    const reloaded = await createBrowserChain({
      accounts: CUSTOMER_KEYS,
      journal: journal.slice(0, kept),
      genesisTimestamp: whole.genesisTimestamp,
    })
    service = await startService(reloaded)
    expect(await setupState(service.chain), `${kept} of ${journal.length} steps kept`).toEqual(
      complete,
    )
  }

  const api = (method: string, path: string, body?: unknown) =>
    service!
      .handle(
        new Request(`https://in-page.invalid/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${service!.apiKey}`,
            'content-type': 'application/json',
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      .then((r) => r.json() as Promise<any>)
  const created = await api('POST', '/payment-sessions', { amount: '12.50', currency: 'USD' })
  await service!.pay(created.paymentSessionId)
  let status = ''
  for (let i = 0; i < 100 && status !== 'FUNDED'; i++) {
    await new Promise((r) => setTimeout(r, 100))
    status = (await api('GET', `/payment-sessions/${created.paymentSessionId}`)).status
  }
  expect(status).toBe('FUNDED')
}, 120_000)

test('Node: a set-up chain is left alone on the next start (a customer who spent is not funded again)', async () => {
  const sb = await start()
  stops.push(() => sb.stop())
  const clients = createChainClients(sb.rpcUrl)
  const accounts = [sb.accounts.smartAccount.address, sb.accounts.safe.address]
  await transferToken({
    rpcUrl: sb.rpcUrl,
    privateKey: CUSTOMER_KEYS[0]!,
    token: LOCAL_TOKENS[0]!.address,
    to: sb.treasury,
    value: units('2500'),
  })
  const before = await setupState(clients, accounts)
  expect(before.tokens[0]!.balances[0]).toBe(FUNDED - units('2500'))
  expect(before.nonces).toEqual([DEPLOYER_NONCE, 2 + LOCAL_TOKENS.length * 2, 6])

  await deployTokens(readArtifacts(), clients, holders)
  await deployTestAccounts(clients, [holders[0]!, holders[1]!])
  expect(await setupState(clients, accounts)).toEqual(before)
})

test('Node: a chain whose setup key sent something else is refused with what to do, never set up at other addresses', async () => {
  const anvil = await startAnvil({})
  const server = await listenChain(createAccess(), 0, () => anvil.ipcPath)
  stops.push(
    () => server.close(),
    () => anvil.stop(),
  )
  const rpcUrl = server.url
  const clients = createChainClients(rpcUrl)
  const deployer = privateKeyToAccount(DEPLOYER_KEY)
  await clients.testClient.setBalance({ address: deployer.address, value: parseEther('1') })
  await createWalletClient({
    account: deployer,
    chain: localChain(rpcUrl),
    transport: http(rpcUrl),
  }).sendTransaction({ to: holders[0]!, value: 1n })
  await expect(deployTokens(readArtifacts(), clients, holders)).rejects.toThrow(
    /has sent 1 transaction\(s\) but "deploy USDC" is not at 0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC: this chain was not set up by this sandbox\. Start with a fresh data folder\./,
  )
})
