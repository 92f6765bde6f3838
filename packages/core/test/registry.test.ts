import { getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createRegistry,
  extendRegistry,
  getNetwork,
  getNetworkByChainId,
  getStablecoin,
  PaySessionError,
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
