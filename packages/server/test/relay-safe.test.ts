// A Safe pays without gas: Safe 1.4.1 with two owners (Safe's own contracts and SDK, from
// @paysession/wallet-stacks) signs the EIP-3009 authorization as its owners sign an off-chain
// message, and Circle's FiatToken v2.2 asks the Safe's `isValidSignature` (ERC-1271, through
// its fallback handler). The relay sends it where the merchant's contract-payer policy allows
// the Safe, and refuses it before any gas is spent where it does not.

import type { Sandbox } from '@paysession/sandbox'
import { transferWithAuthorizationTypes as types } from '@paysession/sandbox'
import {
  createSafeWallet,
  deployContracts,
  localChain,
  type SafeWallet,
} from '@paysession/wallet-stacks'
import {
  type Address,
  createWalletClient,
  custom,
  erc20Abi,
  getAddress,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { codeOf, hashOf, type RelayKit, type Signed, startRelayKit } from './relayHelpers.js'

let sb: Sandbox
let kit: RelayKit
let safe: SafeWallet

beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit({ interval: 50 }))
  const chain = localChain(sb.rpcUrl, sb.chainId)
  await deployContracts(sb.rpcUrl, chain)
  safe = await createSafeWallet(
    { rpcUrl: sb.rpcUrl, chain, bundlerUrl: '' },
    { ownerKeys: [sb.customers[3]!.privateKey, sb.customers[4]!.privateKey], saltNonce: '46' },
  )
  await kit.mint(safe.address)
  await safe.request({ method: 'eth_requestAccounts' })
}, 120_000)
afterAll(() => sb?.stop())

/** What a checkout does (core's `payWithAuthorization`): viem's signTypedData, to the wallet. */
async function signedBySafe(to: Address, owners = safe): Promise<Signed> {
  const now = (await kit.publicClient.getBlock()).timestamp
  const message = {
    from: safe.address,
    to,
    value: parseUnits('10', 6),
    validAfter: 0n,
    validBefore: now + 600n,
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
  const wallet = createWalletClient({ account: safe.address, transport: custom(owners) })
  const signature = await wallet.signTypedData({
    domain: {
      name: 'USD Coin',
      version: '2',
      chainId: sb.chainId,
      verifyingContract: sb.tokens.USDC.address,
    },
    types,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  return { message, signature }
}

const relayerBalance = () => kit.publicClient.getBalance({ address: sb.relayer.address })

test('not allowed by the policy: refused before any gas is spent; allowed: the same signature pays', async () => {
  const s = await kit.session()
  const signed = await signedBySafe(s.otw)
  // Both owners' ECDSA signatures of the SafeMessage, not one key's: only the Safe can judge it.
  expect(signed.signature.length).toBe(2 + 2 * 65 * 2)

  const [nonce, balance] = [await kit.relayerNonce(), await relayerBalance()]
  for (const relay of [
    kit.relayWith(),
    kit.relayWith({ contractPayers: [sb.customers[3]!.address] }),
  ])
    expect(await codeOf(await relay(kit.relayRequest(s.id, signed)))).toEqual([
      400,
      'RELAY_REFUSED',
    ])
  expect(await kit.relayerNonce()).toBe(nonce)
  expect(await relayerBalance()).toBe(balance)
  expect(await kit.transfersTo(s.otw)).toHaveLength(0)
  expect((await kit.client.getSession(s.id)).status).toMatch(/CREATED|PENDING/)

  const res = await kit.relayWith({ contractPayers: [safe.address] })(
    kit.relayRequest(s.id, signed),
  )
  expect(res.status).toBe(200)
  const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(res) })
  expect(receipt.status).toBe('success')
  expect(receipt.from).toBe(sb.relayer.address.toLowerCase())
  const [transfer] = await kit.publicClient.getContractEvents({
    address: sb.tokens.USDC.address,
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { to: s.otw },
    fromBlock: receipt.blockNumber,
    toBlock: receipt.blockNumber,
  })
  expect(getAddress(transfer!.args.from!)).toBe(safe.address)
  expect(transfer!.args.value).toBe(parseUnits('10', 6))
})

test('allowed, but signed by one owner of two: the Safe refuses it, nothing is sent', async () => {
  const s = await kit.session()
  // One owner's signature of the same SafeMessage: below the Safe's threshold.
  const oneOwner = {
    ...safe,
    request: async (args: { method: string; params?: unknown }) => {
      const signature = (await safe.request(args)) as `0x${string}`
      if (args.method !== 'eth_signTypedData_v4') return signature
      const first = privateKeyToAccount(sb.customers[3]!.privateKey).address.toLowerCase()
      const second = privateKeyToAccount(sb.customers[4]!.privateKey).address.toLowerCase()
      // The signatures are sorted by owner: keep the first owner's.
      const at = first < second ? 0 : 1
      return `0x${signature.slice(2 + at * 130, 2 + (at + 1) * 130)}`
    },
  }
  const signed = await signedBySafe(s.otw, oneOwner)
  expect(signed.signature.length).toBe(2 + 65 * 2)
  const nonce = await kit.relayerNonce()
  const res = await kit.relayWith({ contractPayers: [safe.address] })(
    kit.relayRequest(s.id, signed),
  )
  expect(await codeOf(res)).toEqual([422, 'INVALID_SIGNATURE'])
  expect(await kit.relayerNonce()).toBe(nonce)
  expect(await kit.transfersTo(s.otw)).toHaveLength(0)
})
