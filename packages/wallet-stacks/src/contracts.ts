import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Address,
  type Chain,
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getCreate2Address,
  type Hex,
  http,
  pad,
  parseEther,
  zeroHash,
} from 'viem'
import { entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'

const require = createRequire(import.meta.url)
const artifact = (path: string): { abi: unknown[]; bytecode: Hex } =>
  JSON.parse(readFileSync(require.resolve(path), 'utf8'))

/** Arachnid's deterministic deployment proxy: anvil has it at genesis, as most chains do. */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
/**
 * Safe's singleton factory: the same proxy code at the address Safe deploys its contracts
 * through. Its deployment is a presigned transaction per chain; here its code is set directly.
 */
export const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'
/** The salt eth-infinitism deploys EntryPoint v0.8 with (its address is viem's `entryPoint08Address`). */
const ENTRY_POINT_08_SALT: Hex =
  '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
const ENTRY_POINT_07_SALT: Hex =
  '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'

const aa = (name: string) => artifact(`@account-abstraction/contracts/artifacts/${name}.json`)
const safe4337 = (name: string) =>
  artifact(`@safe-global/safe-4337/build/artifacts/contracts/${name}.sol/${name}.json`)
const safe = (path: string) =>
  artifact(`@safe-global/safe-contracts/build/artifacts/contracts/${path}.json`)

type Deployment = { name: string; deployer: Address; salt: Hex; initCode: Hex }

/**
 * The contracts every stack needs, each from its published artifact and deployed by CREATE2 as
 * upstream does, so each lands at its usual address on every chain (checked after deploying).
 */
export const deployments = (): Deployment[] => {
  const withEntryPoint = (bytecode: Hex) => concat([bytecode, pad(entryPoint08Address)])
  return [
    // v0.6 and v0.7 only because Pimlico's paymaster service deploys and funds its paymaster for
    // every EntryPoint version; the wallets here use v0.8.
    {
      name: 'EntryPoint v0.6',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: zeroHash,
      initCode: artifact('@account-abstraction/contracts-v06/artifacts/EntryPoint.json').bytecode,
    },
    {
      name: 'EntryPoint v0.7',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: ENTRY_POINT_07_SALT,
      initCode: artifact('@account-abstraction/contracts-v07/artifacts/EntryPoint.json').bytecode,
    },
    {
      name: 'EntryPoint v0.8',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: ENTRY_POINT_08_SALT,
      initCode: aa('EntryPoint').bytecode,
    },
    {
      name: 'SimpleAccountFactory v0.8',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: zeroHash,
      initCode: withEntryPoint(aa('SimpleAccountFactory').bytecode),
    },
    {
      name: 'Simple7702Account v0.8',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: zeroHash,
      initCode: aa('Simple7702Account').bytecode,
    },
    // Safe's ERC-4337 module (v0.3.0 works with EntryPoint v0.7) and the setup it enables with.
    {
      name: 'Safe4337Module 0.3.0',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: zeroHash,
      initCode: concat([safe4337('Safe4337Module').bytecode, pad(entryPoint07Address)]),
    },
    {
      name: 'SafeModuleSetup 0.3.0',
      deployer: DETERMINISTIC_DEPLOYER,
      salt: zeroHash,
      initCode: safe4337('SafeModuleSetup').bytecode,
    },
    ...(
      [
        ['Safe 1.4.1', 'Safe.sol/Safe'],
        ['SafeL2 1.4.1', 'SafeL2.sol/SafeL2'],
        ['SafeProxyFactory 1.4.1', 'proxies/SafeProxyFactory.sol/SafeProxyFactory'],
        [
          'CompatibilityFallbackHandler 1.4.1',
          'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler',
        ],
        ['MultiSend 1.4.1', 'libraries/MultiSend.sol/MultiSend'],
        ['MultiSendCallOnly 1.4.1', 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly'],
        ['SignMessageLib 1.4.1', 'libraries/SignMessageLib.sol/SignMessageLib'],
        ['CreateCall 1.4.1', 'libraries/CreateCall.sol/CreateCall'],
        ['SimulateTxAccessor 1.4.1', 'accessors/SimulateTxAccessor.sol/SimulateTxAccessor'],
      ] as const
    ).map(([name, path]) => ({
      name,
      deployer: SAFE_SINGLETON_FACTORY,
      salt: zeroHash,
      initCode: safe(path).bytecode,
    })),
  ]
}

export const addressOf = (d: Deployment) =>
  getCreate2Address({ from: d.deployer, salt: d.salt, bytecode: d.initCode })

/** Where each contract is, by the name `deployments()` gives it. */
export const contractAddresses = () =>
  Object.fromEntries(deployments().map((d) => [d.name, addressOf(d)])) as Record<string, Address>

/** Safe 1.4.1's addresses as @safe-global/protocol-kit's `contractNetworks` takes them. */
export const safeContractNetworks = (chainId: number) => {
  const a = contractAddresses()
  return {
    [String(chainId)]: {
      safeSingletonAddress: a['Safe 1.4.1']!,
      safeProxyFactoryAddress: a['SafeProxyFactory 1.4.1']!,
      multiSendAddress: a['MultiSend 1.4.1']!,
      multiSendCallOnlyAddress: a['MultiSendCallOnly 1.4.1']!,
      fallbackHandlerAddress: a['CompatibilityFallbackHandler 1.4.1']!,
      signMessageLibAddress: a['SignMessageLib 1.4.1']!,
      createCallAddress: a['CreateCall 1.4.1']!,
      simulateTxAccessorAddress: a['SimulateTxAccessor 1.4.1']!,
    },
  }
}

/** The key that sends the deployments (a key of this package's own, funded with anvil_setBalance). */
const DEPLOYER_KEY: Hex = '0x5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe'

/** Deploys what is missing (a chain that has them all is left as it is). */
export async function deployContracts(rpcUrl: string, chain: Chain) {
  const transport = http(rpcUrl)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
  const testClient = createTestClient({ chain, mode: 'anvil', transport })
  const account = privateKeyToAccount(DEPLOYER_KEY)
  const wallet = createWalletClient({ account, chain, transport })
  const hasCode = async (address: Address) => {
    const code = await publicClient.getCode({ address })
    return !!code && code !== '0x'
  }
  if (!(await hasCode(SAFE_SINGLETON_FACTORY))) {
    const code = await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER })
    if (!code) throw new Error(`no deterministic deployment proxy at ${DETERMINISTIC_DEPLOYER}`)
    await testClient.setCode({ address: SAFE_SINGLETON_FACTORY, bytecode: code })
  }
  await testClient.setBalance({ address: account.address, value: parseEther('100') })
  const missing: Deployment[] = []
  for (const d of deployments()) if (!(await hasCode(addressOf(d)))) missing.push(d)
  let nonce = await publicClient.getTransactionCount({ address: account.address })
  const hashes: Hex[] = []
  for (const d of missing)
    hashes.push(
      await wallet.sendTransaction({
        to: d.deployer,
        data: concat([d.salt, d.initCode]),
        gas: 16_000_000n,
        nonce: nonce++,
      }),
    )
  for (const hash of hashes) await publicClient.waitForTransactionReceipt({ hash })
  for (const d of missing)
    if (!(await hasCode(addressOf(d))))
      throw new Error(`${d.name} was not deployed at ${addressOf(d)}`)
  return contractAddresses()
}
