import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEventLogs,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RELAYER_MAX_GAS } from '../src/chain/authorization.js'
import { localChain } from '../src/chain/clients.js'
import {
  eip3009Abi,
  erc20Abi,
  type Sandbox,
  transferWithAuthorization,
  transferWithAuthorizationTypes,
} from '../src/index.js'
import { createSession, start, waitForSession } from './helpers.js'

let sb: Sandbox
let chain: ReturnType<typeof localChain>
let publicClient: ReturnType<typeof createPublicClient>
beforeAll(async () => {
  sb = await start()
  chain = localChain(sb.rpcUrl)
  publicClient = createPublicClient({ chain, transport: http(sb.rpcUrl) })
})
afterAll(() => sb?.stop())

/** A customer with 50 USDC and EURC and no ETH at all. */
async function customerWithoutGas() {
  const key = generatePrivateKey()
  const address = privateKeyToAccount(key).address
  const minter = createWalletClient({
    account: privateKeyToAccount(sb.customers[0]!.privateKey),
    chain,
    transport: http(sb.rpcUrl),
  })
  for (const token of [sb.tokens.USDC, sb.tokens.EURC]) {
    const hash = await minter.writeContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [address, parseUnits('50', 6)],
    })
    await publicClient.waitForTransactionReceipt({ hash })
  }
  expect(await publicClient.getBalance({ address })).toBe(0n)
  return { key, address }
}

async function sign(
  key: Hex,
  token: Hex,
  message: {
    from: Hex
    to: Hex
    value: bigint
    validAfter: bigint
    validBefore: bigint
    nonce: Hex
  },
) {
  const [name, version] = await Promise.all(
    (['name', 'version'] as const).map((functionName) =>
      publicClient.readContract({ address: token, abi: eip3009Abi, functionName }),
    ),
  )
  return privateKeyToAccount(key).signTypedData({
    domain: { name, version, chainId: chain.id, verifyingContract: token },
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
  })
}

const relayer = () =>
  createWalletClient({
    account: privateKeyToAccount(sb.relayer.privateKey),
    chain,
    transport: http(sb.rpcUrl),
  })

describe('EIP-3009 on the test stablecoins', () => {
  test('the EIP-712 domain is FiatToken v2’s: name() and version() "2"', async () => {
    const read = (functionName: 'name' | 'version') =>
      publicClient.readContract({ address: sb.tokens.USDC.address, abi: eip3009Abi, functionName })
    expect(await read('name')).toBe('USD Coin')
    expect(await read('version')).toBe('2')
  })

  test('a customer with no ETH pays a session gaslessly; the Transfer’s from is the customer', async () => {
    const customer = await customerWithoutGas()
    const s = await createSession(sb)
    const hash = await sb.pay(s.paymentSessionId, { from: customer.key, gasless: true })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(getAddress(receipt.from)).toBe(sb.relayer.address)
    // Sent with the relay's gas limit, not whatever the node estimates.
    expect((await publicClient.getTransaction({ hash })).gas).toBe(RELAYER_MAX_GAS)
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers).toHaveLength(1)
    expect(transfers[0]!.args).toMatchObject({
      from: customer.address,
      to: getAddress(s.oneTimeWalletAddress),
      value: 10_000_000n,
    })
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded.fundingTransactionHash).toBe(hash)
    expect(getAddress(funded.userAddress)).toBe(customer.address)
    expect(await publicClient.getBalance({ address: customer.address })).toBe(0n)
  })

  test('an authorization is used once; expired, early, forged and receive-by-others are refused', async () => {
    const customer = await customerWithoutGas()
    const token = sb.tokens.USDC.address
    const now = (await publicClient.getBlock()).timestamp
    const base = {
      from: customer.address,
      to: sb.treasury,
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: now + 600n,
    }
    const submit = async (message: typeof base & { nonce: Hex }, signature: Hex) => {
      const args = [
        message.from,
        message.to,
        message.value,
        message.validAfter,
        message.validBefore,
        message.nonce,
        signature,
      ] as const
      await publicClient.simulateContract({
        account: sb.relayer.address,
        address: token,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args,
      })
      const hash = await relayer().writeContract({
        address: token,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args,
      })
      return publicClient.waitForTransactionReceipt({ hash })
    }
    const once = { ...base, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) }
    const signature = await sign(customer.key, token, once)
    expect(
      await publicClient.readContract({
        address: token,
        abi: eip3009Abi,
        functionName: 'authorizationState',
        args: [customer.address, once.nonce],
      }),
    ).toBe(false)
    expect((await submit(once, signature)).status).toBe('success')
    expect(
      await publicClient.readContract({
        address: token,
        abi: eip3009Abi,
        functionName: 'authorizationState',
        args: [customer.address, once.nonce],
      }),
    ).toBe(true)
    await expect(submit(once, signature)).rejects.toThrow('authorization is used or canceled')

    const expired = { ...base, validBefore: now - 1n, nonce: toHex(1n, { size: 32 }) }
    await expect(submit(expired, await sign(customer.key, token, expired))).rejects.toThrow(
      'authorization is expired',
    )
    const early = { ...base, validAfter: now + 300n, nonce: toHex(2n, { size: 32 }) }
    await expect(submit(early, await sign(customer.key, token, early))).rejects.toThrow(
      'authorization is not yet valid',
    )
    const changed = { ...base, nonce: toHex(3n, { size: 32 }) }
    const forged = await sign(customer.key, token, changed)
    await expect(submit({ ...changed, value: 2_000_000n }, forged)).rejects.toThrow(
      'invalid signature',
    )
    await expect(
      publicClient.simulateContract({
        account: sb.relayer.address,
        address: token,
        abi: [
          {
            type: 'function',
            name: 'receiveWithAuthorization',
            stateMutability: 'nonpayable',
            inputs: eip3009Abi[0].inputs,
            outputs: [],
          },
        ],
        functionName: 'receiveWithAuthorization',
        args: [
          changed.from,
          changed.to,
          changed.value,
          changed.validAfter,
          changed.validBefore,
          changed.nonce,
          forged,
        ],
      }),
    ).rejects.toThrow('caller must be the payee')
  })

  test('test USDT has no EIP-3009', async () => {
    const s = await createSession(sb)
    await expect(sb.pay(s.paymentSessionId, { token: 'USDT', gasless: true })).rejects.toThrow(
      'no EIP-3009',
    )
    await expect(
      transferWithAuthorization({
        rpcUrl: sb.rpcUrl,
        customerKey: sb.customers[1]!.privateKey,
        token: sb.tokens.USDT.address,
        to: getAddress(s.oneTimeWalletAddress),
        value: 1n,
      }),
    ).rejects.toThrow()
  })
})
