import { createConfig, http as wagmiHttp } from '@wagmi/core'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tokenDomain } from '../src/actions/payWithAuthorization.js'
import { checkToken } from '../src/chain/checkToken.js'
import {
  createRegistry,
  getNetwork,
  getStablecoin,
  getStablecoinBalances,
  PaySessionError,
  type StablecoinInfo,
} from '../src/exports/index.js'
import { localChain, type Sandbox, startSandbox } from './support.js'

// The token is checked on chain before any prompt: a registry (a page's override) that says the
// wrong decimals or EIP-712 domain is refused with INVALID_CONFIG, against the sandbox's real
// test tokens on anvil.

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(() => sb?.stop())

const setup = () => {
  const network = getNetwork(createRegistry({ localRpcUrl: sb.rpcUrl }), 'LOCAL')
  const client = createPublicClient({ chain: localChain(sb.rpcUrl), transport: http(sb.rpcUrl) })
  return { network, client, usdc: getStablecoin(network, 'USDC') }
}

const failure = async (run: () => Promise<unknown>) => {
  try {
    await run()
  } catch (error) {
    return error as PaySessionError
  }
  throw new Error('not refused')
}

describe('checkToken', () => {
  test('the pinned LOCAL tokens match the chain: decimals and the EIP-712 domain', async () => {
    const { network, client, usdc } = setup()
    const facts = await checkToken(client, network, usdc)
    expect(facts).toEqual({ decimals: 6, domain: { name: 'USD Coin', version: '2' } })
    expect(tokenDomain(network, usdc, facts)).toEqual(usdc.eip712)
    const eurc = getStablecoin(network, 'EURC')
    expect(tokenDomain(network, eurc, await checkToken(client, network, eurc))).toEqual(eurc.eip712)
    // No EIP-3009: its domain is not read.
    const usdt = getStablecoin(network, 'USDT')
    expect(await checkToken(client, network, usdt)).toEqual({ decimals: 6, domain: undefined })
  })

  test('wrong decimals: INVALID_CONFIG saying both, before any balance is shown', async () => {
    const { network, client, usdc } = setup()
    const wrong: StablecoinInfo = { ...usdc, decimals: 18 }
    const error = await failure(() => checkToken(client, network, wrong))
    expect(error).toBeInstanceOf(PaySessionError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.details).toBe('USDC on LOCAL: decimals() is 6, not as in the registry')
    expect(error.shortMessage).toBe(
      'This checkout is not set up securely. Please contact the merchant.',
    )
    const balances = await failure(() =>
      getStablecoinBalances({ wagmiConfig: wagmiFor(sb.rpcUrl) } as never, {
        network,
        tokens: [wrong],
        account: sb.customers[0]!.address,
        amount: '1.00',
      }),
    )
    expect(balances.code).toBe('INVALID_CONFIG')
  })

  test('an address with no token: INVALID_CONFIG', async () => {
    const { network, client, usdc } = setup()
    const error = await failure(() =>
      checkToken(client, network, {
        ...usdc,
        address: '0x000000000000000000000000000000000000dEaD',
        eip3009: false,
      }),
    )
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.details).toContain('decimals() is undefined')
  })

  test('another EIP-712 domain than the registry says: INVALID_CONFIG for the gasless path', async () => {
    const { network, client, usdc } = setup()
    const pinned = { ...usdc, eip712: { name: 'USDC', version: '2' } }
    const facts = await checkToken(client, network, pinned)
    const error = await failure(async () => tokenDomain(network, pinned, facts))
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.details).toContain(
      'EIP-712 domain {"name":"USD Coin","version":"2"}, not as in the registry',
    )
    const version = { ...usdc, eip712: { name: 'USD Coin', version: '1' } }
    expect((await failure(async () => tokenDomain(network, version, facts))).code).toBe(
      'INVALID_CONFIG',
    )
  })

  test('an RPC that does not answer is not a verdict: read again next time', async () => {
    const { network } = setup()
    // USDT read as an EIP-3009 token: a key no test before read.
    const usdt = { ...getStablecoin(network, 'USDT'), eip3009: true }
    const down = createPublicClient({
      chain: localChain('http://127.0.0.1:9'),
      transport: http('http://127.0.0.1:9', { retryCount: 0 }),
    })
    const error = await failure(() => checkToken(down, network, usdt))
    expect(error).not.toBeInstanceOf(PaySessionError)
    const { client } = setup()
    expect((await checkToken(client, network, usdt)).decimals).toBe(6)
  })
})

function wagmiFor(rpcUrl: string) {
  const chain = localChain(rpcUrl)
  return createConfig({ chains: [chain], transports: { [chain.id]: wagmiHttp(rpcUrl) } })
}
