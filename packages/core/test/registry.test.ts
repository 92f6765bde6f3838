import { getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createPaySessionConfig,
  createRegistry,
  extendRegistry,
  getNetwork,
  getNetworkByChainId,
  getStablecoin,
  type NetworkInfo,
  PaySessionError,
  pinnedChanges,
  pinnedNetworks,
  resolveSessionAssets,
  restrictRegistry,
} from '../src/exports/index.js'

describe('registry', () => {
  const registry = createRegistry({ localRpcUrl: 'http://127.0.0.1:9999' })

  test('every network has a name for people and an icon', () => {
    const names = Object.fromEntries(registry.networks.map((n) => [n.name, n.displayName]))
    expect(names).toMatchObject({
      LOCAL: 'Local test chain',
      ETHEREUM: 'Ethereum',
      BASE: 'Base',
      ARBITRUM: 'Arbitrum One',
      OPTIMISM: 'OP Mainnet',
    })
    for (const network of registry.networks)
      expect(network.icon, network.name).toMatch(/^data:image\/svg\+xml,%3Csvg/)
    // A network added without them is named after its chain and drawn without an icon.
    const [custom] = createRegistry({
      networks: [{ ...getNetwork(registry, 'LOCAL'), displayName: undefined, icon: undefined }],
    }).networks
    expect(custom!.displayName).toBe('Local (sandbox)')
    expect(custom!.icon).toBeUndefined()
  })

  test('pinned entries are checksummed addresses with integer decimals on the right chains', () => {
    const chainIds = Object.fromEntries(pinnedNetworks.map((n) => [n.name, n.chainId]))
    expect(chainIds).toEqual({
      ETHEREUM: 1,
      SEPOLIA: 11155111,
      BASE: 8453,
      BASE_SEPOLIA: 84532,
      ARBITRUM: 42161,
      OPTIMISM: 10,
      POLYGON: 137,
      AVALANCHE: 43114,
      CELO: 42220,
    })
    for (const network of pinnedNetworks) {
      expect(network.chain.id).toBe(network.chainId)
      for (const token of network.tokens) expect(getAddress(token.address)).toBe(token.address)
    }
    expect(getStablecoin(getNetwork(registry, 'ETHEREUM'), 'USDC').address).toBe(
      '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    )
    expect(getStablecoin(getNetwork(registry, 'ETHEREUM'), 'DAI').decimals).toBe(18)
    expect(getStablecoin(getNetwork(registry, 'ETHEREUM'), 'USDT').quirks).toContain(
      'transferReturnsNothing',
    )
  })

  test('EIP-3009 is known per network and token: Circle USDC/EURC yes, USDT and DAI no', () => {
    const gasless = (network: string) =>
      getNetwork(registry, network)
        .tokens.filter((t) => t.eip3009)
        .map((t) => t.symbol)
    expect(gasless('ETHEREUM')).toEqual(['USDC', 'EURC', 'PYUSD'])
    expect(gasless('BASE')).toEqual(['USDC', 'EURC'])
    expect(gasless('ARBITRUM')).toEqual(['USDC'])
    expect(gasless('POLYGON')).toEqual(['USDC'])
    expect(gasless('LOCAL')).toEqual(['USDC', 'EURC'])
    for (const network of pinnedNetworks)
      for (const token of network.tokens)
        if (['USDT', 'DAI', 'USDS'].includes(token.symbol)) expect(token.eip3009).toBeFalsy()
  })

  test('uncertain entries are left out: OPTIMISM USDT, SEPOLIA PYUSD', () => {
    expect(() => getStablecoin(getNetwork(registry, 'OPTIMISM'), 'USDT')).toThrow(PaySessionError)
    expect(() => getStablecoin(getNetwork(registry, 'SEPOLIA'), 'PYUSD')).toThrow(PaySessionError)
  })

  test('LOCAL carries the sandbox tokens, its RPC URL and no explorer', () => {
    const local = getNetworkByChainId(registry, 31337)!
    expect(local.name).toBe('LOCAL')
    expect(local.explorerUrl).toBeUndefined()
    expect(local.chain.rpcUrls.default.http[0]).toBe('http://127.0.0.1:9999')
    expect(local.tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual([
      ['USDC', '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC', 6],
      ['USDT', '0x6d741950129e74422fb11ff179C11710c8d2d7CB', 6],
      ['EURC', '0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57', 6],
    ])
  })

  test('unknown network or token is refused with its code', () => {
    const error = (fn: () => unknown) => {
      try {
        fn()
      } catch (e) {
        return (e as PaySessionError).code
      }
    }
    expect(
      error(() => resolveSessionAssets(registry, { network: 'MOON', tokenSymbol: 'USDC' })),
    ).toBe('UNSUPPORTED_NETWORK')
    expect(
      error(() => resolveSessionAssets(registry, { network: 'LOCAL', tokenSymbol: 'XYZ' })),
    ).toBe('UNSUPPORTED_TOKEN')
    expect(error(() => resolveSessionAssets(registry, { tokenSymbol: 'USDC' }))).toBe(
      'UNSUPPORTED_NETWORK',
    )
  })

  test('acceptedTokens wins over tokenSymbol; unknown accepted tokens are skipped', () => {
    const { tokens } = resolveSessionAssets(registry, {
      network: 'LOCAL',
      tokenSymbol: 'USDC',
      acceptedTokens: ['USDC', 'USDT', 'FOO'],
    })
    expect(tokens.map((t) => t.symbol)).toEqual(['USDC', 'USDT'])
  })

  test('merchants extend and restrict', () => {
    const usdt0 = '0x01bff41798a0bcf287b996046ca68b395dbc1071'
    const extended = extendRegistry(registry, {
      tokens: { OPTIMISM: [{ symbol: 'usdt', address: usdt0, decimals: 6 }] },
    })
    expect(getStablecoin(getNetwork(extended, 'OPTIMISM'), 'USDT').address).toBe(getAddress(usdt0))
    const restricted = restrictRegistry(extended, { networks: ['BASE', 'LOCAL'], tokens: ['USDC'] })
    expect(restricted.networks.map((n) => n.name)).toEqual(['BASE', 'LOCAL'])
    expect(getNetwork(restricted, 'LOCAL').tokens.map((t) => t.symbol)).toEqual(['USDC'])
    expect(() => getNetwork(restricted, 'ETHEREUM')).toThrow(PaySessionError)
  })

  test('a token with a wrong checksum is refused', () => {
    expect(() =>
      extendRegistry(registry, {
        tokens: {
          BASE: [
            { symbol: 'X', address: '0x833589fcD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
          ],
        },
      }),
    ).toThrow(/not a valid address/)
  })
})

// What a page writes into a registry (the widget's `registry`, `networks`, `tokens`) is checked
// as the pinned entries are: addresses, decimals, and every URL by the one URL rule.
describe('a given registry is checked, URLs included', () => {
  const local = getNetwork(createRegistry(), 'LOCAL')
  const withChain = (patch: Partial<NetworkInfo['chain']>, more: Partial<NetworkInfo> = {}) => ({
    ...local,
    chain: { ...local.chain, ...patch },
    ...more,
  })
  const refusal = (run: () => unknown) => {
    try {
      run()
    } catch (error) {
      return error instanceof PaySessionError ? `${error.code}: ${error.details}` : String(error)
    }
    return 'ok'
  }
  const config = (networks: NetworkInfo[], more = {}) =>
    refusal(() =>
      createPaySessionConfig({ apiBase: 'https://api.example', registry: { networks }, ...more }),
    )

  test('an http RPC (not this machine) never reaches a wallet: refused where it comes in', () => {
    const http = withChain({ rpcUrls: { default: { http: ['http://rpc.example.test'] } } })
    expect(refusal(() => createRegistry({ networks: [http] }))).toMatch(
      /^INVALID_CONFIG: LOCAL rpcUrls "http:\/\/rpc.example.test": not https/,
    )
    // A registry object built by hand (the widget's `registry` property) gets the same check.
    expect(config([http])).toMatch(/^INVALID_CONFIG: LOCAL rpcUrls/)
    const secret = withChain({ rpcUrls: { default: { http: ['https://key:x@rpc.example.test'] } } })
    expect(config([secret])).toMatch(/^INVALID_CONFIG/)
    // The sandbox's anvil on this machine is fine.
    expect(config([withChain({ rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } })])).toBe(
      'ok',
    )
  })

  test('a javascript: explorer URL is refused before it can become a link', () => {
    expect(config([withChain({}, { explorerUrl: 'javascript:alert(document.cookie)' })])).toMatch(
      /^INVALID_CONFIG: LOCAL explorerUrl "javascript:alert\(document.cookie\)": not https/,
    )
    expect(config([withChain({}, { explorerUrl: 'http://scan.example.test' })])).toMatch(
      /^INVALID_CONFIG/,
    )
    expect(config([withChain({}, { explorerUrl: 'https://scan.example.test' })])).toBe('ok')
  })

  test('a registry property gets the token checks createRegistry applies', () => {
    const bad = { ...local, tokens: [{ symbol: 'USDC', address: '0x123' as never, decimals: 6 }] }
    expect(config([bad])).toMatch(/^INVALID_ADDRESS/)
    const decimals = { ...local, tokens: [{ ...local.tokens[0]!, decimals: 6.5 }] }
    expect(config([decimals])).toMatch(/^INVALID_AMOUNT/)
  })

  test('rpcUrls and paymasterUrl follow the same rule', () => {
    expect(config([local], { rpcUrls: { 31337: 'http://rpc.example.test' } })).toMatch(
      /^INVALID_CONFIG: rpcUrls\[31337\]/,
    )
    expect(config([local], { paymasterUrl: 'http://paymaster.example.test' })).toMatch(
      /^INVALID_CONFIG: paymasterUrl/,
    )
    expect(config([local], { paymasterUrl: 'https://paymaster.example.test/rpc' })).toBe('ok')
  })
})

describe('pinnedChanges: what a registry changes of the pinned one', () => {
  const pinned = createRegistry({ localRpcUrl: 'http://127.0.0.1:9999' })

  test('adding and leaving out change nothing pinned', () => {
    expect(pinnedChanges(pinned, 'http://127.0.0.1:9999')).toEqual([])
    const usdt0 = '0x01bff41798a0bcf287b996046ca68b395dbc1071'
    const added = extendRegistry(pinned, {
      tokens: { OPTIMISM: [{ symbol: 'USDT', address: usdt0, decimals: 6 }] },
    })
    expect(pinnedChanges(added, 'http://127.0.0.1:9999')).toEqual([])
    const fewer = restrictRegistry(pinned, { networks: ['BASE'], tokens: ['USDC'] })
    expect(pinnedChanges(fewer, 'http://127.0.0.1:9999')).toEqual([])
  })

  test('a pinned token or network replaced is named', () => {
    const base = getNetwork(pinned, 'BASE')
    const usdc = getStablecoin(base, 'USDC')
    const changed = extendRegistry(pinned, {
      tokens: { base: [{ ...usdc, symbol: 'usdc', decimals: 18 }] },
    })
    expect(pinnedChanges(changed, 'http://127.0.0.1:9999')).toEqual(['USDC on BASE'])
    const domain = extendRegistry(pinned, {
      tokens: { BASE: [{ ...usdc, eip712: { name: 'USDC', version: '2' } }] },
    })
    expect(pinnedChanges(domain, 'http://127.0.0.1:9999')).toEqual(['USDC on BASE'])
    const explorer = extendRegistry(pinned, {
      networks: [{ ...base, explorerUrl: 'https://scan.example.test' }],
    })
    expect(pinnedChanges(explorer, 'http://127.0.0.1:9999')).toEqual(['BASE'])
    // LOCAL on another RPC than the page's rpc-urls is a change too: a wallet may add it.
    expect(pinnedChanges(pinned, 'http://127.0.0.1:8545')).toEqual(['LOCAL'])
  })
})
