import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  type PublicClient,
  sliceHex,
} from 'viem'

// The contract payers the demo's relay sends for (its `contractPayers` policy). Their signature
// check runs at the relayer's expense, so only code the shop knows: the sandbox's test smart
// account, and a Safe 1.4.1 that runs only Safe's own audited code for it. A Safe answers
// ERC-1271 through its fallback handler, which its owners choose, so that must be Safe's too.

/** keccak256 of SafeProxy 1.4.1's runtime code (it has no immutables: the same in every Safe). */
const SAFE_PROXY_CODE_HASH = '0xd7d408ebcd99b2b70be43e20253d6d92a8ea8fab29bd3be7f55b10032331fb4c'
/** Safe 1.4.1 and SafeL2 1.4.1, at their canonical addresses (Safe's singleton factory). */
const SAFE_SINGLETONS: Address[] = [
  '0x41675C099F32341bf84BFc5382aF534df5C7461a',
  '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
]
/** CompatibilityFallbackHandler 1.4.1, which answers `isValidSignature` with the owners' signatures. */
const SAFE_FALLBACK_HANDLER: Address = '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99'
/** keccak256("fallback_manager.handler.address"): where a Safe keeps its fallback handler. */
const FALLBACK_HANDLER_SLOT: Hex =
  '0x6c9a6c4a39284e37ed1cf53d337577d14212a4870fb976a4366c693b939918d5'

const storedAddress = (word: Hex | undefined) =>
  word ? getAddress(sliceHex(word, 12, 32)) : undefined

/** Whether `address` is a Safe 1.4.1 proxy whose ERC-1271 answer is Safe's own code. */
export async function isSafe141(client: PublicClient, address: Address): Promise<boolean> {
  const [code, singleton, handler] = await Promise.all([
    client.getCode({ address }),
    client.getStorageAt({ address, slot: '0x0' }),
    client.getStorageAt({ address, slot: FALLBACK_HANDLER_SLOT }),
  ])
  if (!code || keccak256(code) !== SAFE_PROXY_CODE_HASH) return false
  const master = storedAddress(singleton)
  const fallback = storedAddress(handler)
  return (
    !!master &&
    SAFE_SINGLETONS.some((s) => isAddressEqual(s, master)) &&
    !!fallback &&
    isAddressEqual(fallback, SAFE_FALLBACK_HANDLER)
  )
}

/** The demo relay's policy: the listed accounts, and Safe 1.4.1s as above. */
export function demoContractPayers(rpcUrl: string, listed: Address[]) {
  const client = createPublicClient({ transport: http(rpcUrl) })
  return async (address: Address) =>
    listed.some((a) => isAddressEqual(a, address)) || (await isSafe141(client, address))
}
