import { readFileSync } from 'node:fs'
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  type Hex,
  parseAbiItem,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { type Artifacts, deployTokens as deployTestTokens } from '../../sandbox/src/chain/deploy.js'
import {
  FIAT_TOKEN_IMPLEMENTATION,
  linkBytecode,
  SIGNATURE_CHECKER,
} from '../../sandbox/src/chain/fiatToken.js'
import { DEPLOYER_KEY, erc20Abi, LOCAL_TOKENS } from '../../sandbox/src/chain/tokens.js'
import { type BrowserChain, createBrowserChain, type JournalEntry } from '../src/index.js'

// The same compiled test tokens the sandbox deploys on anvil.
const artifacts = JSON.parse(
  readFileSync(new URL('../../sandbox/artifacts/contracts.json', import.meta.url), 'utf8'),
) as Artifacts

const CUSTOMER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const customer = privateKeyToAccount(CUSTOMER_KEY)
const deployer = privateKeyToAccount(DEPLOYER_KEY)
const OTW: Address = '0x00000000000000000000000000000000000a11ce'
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const local = defineChain({
  id: 31337,
  name: 'Local test chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://in-page.invalid'] } },
})

function clients(chain: BrowserChain) {
  const transport = custom(chain)
  return {
    publicClient: createPublicClient({ chain: local, transport, cacheTime: 0 }),
    // A local account: viem signs, the chain gets eth_sendRawTransaction.
    deployerWallet: createWalletClient({ account: deployer, chain: local, transport }),
    // A JSON-RPC account: the chain signs for it, as anvil does for its unlocked accounts.
    customerWallet: createWalletClient({ account: customer.address, chain: local, transport }),
  }
}

/** The sandbox's own setup on this chain: Circle's FiatToken for USDC and EURC, as on anvil. */
async function deployTokens(chain: BrowserChain) {
  const transport = custom(chain)
  await deployTestTokens(
    artifacts,
    {
      chain: local,
      publicClient: createPublicClient({ chain: local, transport, cacheTime: 0 }),
      testClient: createTestClient({ chain: local, transport, mode: 'anvil', cacheTime: 0 }),
    },
    [customer.address],
    { mintPerCustomer: 1_000n },
  )
}

const newChain = (options: Parameters<typeof createBrowserChain>[0] = {}) =>
  createBrowserChain({ accounts: [CUSTOMER_KEY], ...options }).then(async (chain) => {
    await chain.request({
      method: 'anvil_setBalance',
      params: [deployer.address, '0x3635c9adc5dea00000'],
    })
    return chain
  })

describe('the in-browser chain', () => {
  it('deploys the test tokens at the same addresses as anvil (same deployer, same nonces)', async () => {
    const chain = await newChain()
    await deployTokens(chain)
    const { publicClient } = clients(chain)
    for (const token of LOCAL_TOKENS) {
      expect(
        await publicClient.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [customer.address],
        }),
      ).toBe(1_000n * 10n ** BigInt(token.decimals))
    }
  })

  it.each(LOCAL_TOKENS.map((t) => [t.symbol, t] as const))(
    'transfers %s to a one-time wallet: receipt, Transfer log, balances, getLogs filters',
    async (_, token) => {
      const chain = await newChain()
      await deployTokens(chain)
      const { publicClient, customerWallet } = clients(chain)
      // USDT's transfer returns nothing (the mainnet quirk): the call must still succeed.
      const hash = await customerWallet.writeContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [OTW, 10_123_456n],
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      expect(receipt.from.toLowerCase()).toBe(customer.address.toLowerCase())
      const [log] = parseEventLogs({ abi: [transferEvent], logs: receipt.logs })
      expect(log?.args).toEqual({ from: customer.address, to: getAddress(OTW), value: 10_123_456n })

      const found = await publicClient.getLogs({
        address: token.address,
        event: transferEvent,
        args: { to: OTW },
        fromBlock: 0n,
      })
      expect(found.map((l) => l.transactionHash)).toEqual([hash])
      const none = await publicClient.getLogs({
        address: token.address,
        event: transferEvent,
        args: { to: customer.address },
        fromBlock: receipt.blockNumber,
      })
      expect(none).toEqual([])
      expect(
        await publicClient.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [OTW],
        }),
      ).toBe(10_123_456n)
      // Gas was paid in ETH by the customer.
      expect(await publicClient.getBalance({ address: customer.address })).toBeLessThan(10n ** 22n)
    },
  )

  it("runs Circle's FiatToken v2.2 for USDC and EURC: the same bytecode as the artifact anvil gets", async () => {
    const chain = await newChain()
    await deployTokens(chain)
    const { publicClient } = clients(chain)
    const implementation = artifacts.FiatTokenV2_2!
    expect(await publicClient.getCode({ address: FIAT_TOKEN_IMPLEMENTATION })).toBe(
      linkBytecode(implementation.deployedBytecode!, implementation.deployedLinkReferences, {
        SignatureChecker: SIGNATURE_CHECKER,
      }),
    )
    for (const token of LOCAL_TOKENS.filter((t) => t.contract === 'FiatTokenV2_2'))
      expect(await publicClient.getCode({ address: token.address })).toBe(
        artifacts.FiatTokenProxy!.deployedBytecode,
      )
  })

  it('reverts a transfer over the balance: eth_call and estimateGas report the revert', async () => {
    const chain = await newChain()
    await deployTokens(chain)
    const { publicClient } = clients(chain)
    const error = await publicClient
      .simulateContract({
        account: customer.address,
        address: LOCAL_TOKENS[0]!.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [OTW, 10n ** 30n],
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BaseError)
    expect(
      (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError),
    ).toBeTruthy()
  })

  it('refuses a transaction the sender cannot pay gas for, and mines nothing', async () => {
    const chain = await newChain()
    await deployTokens(chain)
    const { publicClient } = clients(chain)
    const poor = privateKeyToAccount(
      '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
    )
    const before = await publicClient.getBlockNumber()
    const wallet = createWalletClient({ account: poor, chain: local, transport: custom(chain) })
    await expect(wallet.sendTransaction({ to: OTW, value: 1n, gas: 21_000n })).rejects.toThrow(
      /balance|funds/i,
    )
    expect(await publicClient.getBlockNumber()).toBe(before)
  })

  it('persists as a journal: a chain replayed from it has the same blocks, logs and balances', async () => {
    const saved: JournalEntry[] = []
    const chain = await newChain({ onJournal: (entry) => void saved.push(entry) })
    await deployTokens(chain)
    const { customerWallet, publicClient } = clients(chain)
    const hash = await customerWallet.writeContract({
      address: LOCAL_TOKENS[1]!.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [OTW, 5n],
    })
    await chain.request({ method: 'evm_increaseTime', params: [3600] })
    await chain.request({ method: 'evm_mine', params: [] })
    expect(saved).toEqual(chain.journal())
    // Only what the journal holds survives: JSON, as IndexedDB or localStorage would keep it.
    // With the genesis timestamp saved beside it, as the hosted demo keeps it: a restore in
    // another second than the first start must still reach the same hashes.
    const restored = await createBrowserChain({
      accounts: [CUSTOMER_KEY],
      journal: JSON.parse(JSON.stringify(saved)),
      genesisTimestamp: chain.genesisTimestamp,
    })
    const again = clients(restored).publicClient
    expect(await again.getBlockNumber()).toBe(await publicClient.getBlockNumber())
    const [a, b] = await Promise.all([
      publicClient.getBlock({ blockTag: 'latest' }),
      again.getBlock({ blockTag: 'latest' }),
    ])
    expect(b.hash).toBe(a.hash)
    expect(b.timestamp).toBe(a.timestamp)
    expect((await again.getTransactionReceipt({ hash })).logs).toEqual(
      (await publicClient.getTransactionReceipt({ hash })).logs,
    )
    expect(
      await again.readContract({
        address: LOCAL_TOKENS[1]!.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [OTW],
      }),
    ).toBe(5n)
  })

  it('answers an unknown method with EIP-1193 code 4200', async () => {
    const chain = await newChain()
    await expect(chain.request({ method: 'eth_subscribe', params: [] })).rejects.toMatchObject({
      code: 4200,
    })
  })
})
