import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseAbi,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { localChain } from './clients.js'
import { DEPLOYER_KEY, type LocalToken, tokenBySymbol } from './tokens.js'

// What Circle's pauser and blacklister do to a FiatToken, done by the sandbox's deployer (which
// holds both roles), so a developer can try a paused token or a blacklisted address.

export const fiatTokenAdminAbi = parseAbi([
  'function pause()',
  'function unpause()',
  'function paused() view returns (bool)',
  'function blacklist(address account)',
  'function unBlacklist(address account)',
  'function isBlacklisted(address account) view returns (bool)',
])

function clients(rpcUrl: string) {
  const chain = localChain(rpcUrl)
  return {
    wallet: createWalletClient({
      account: privateKeyToAccount(DEPLOYER_KEY),
      chain,
      transport: http(rpcUrl),
    }),
    reader: createPublicClient({ chain, transport: http(rpcUrl), cacheTime: 0 }),
  }
}

/** A sandbox token as `Sandbox['tokens']` or `LOCAL_TOKENS` names it. */
type TokenRef = { symbol: string; address: LocalToken['address'] }

function checkFiatToken(token: TokenRef) {
  if (tokenBySymbol(token.symbol)?.contract !== 'FiatTokenV2_2')
    throw new Error(
      `${token.symbol} is the sandbox's own test token, not Circle's FiatToken: only USDC and EURC can be paused or blacklist an address`,
    )
}

/** Pauses (or unpauses) a FiatToken: every transfer and authorization reverts while paused. */
export async function setTokenPaused(rpcUrl: string, token: TokenRef, paused: boolean) {
  checkFiatToken(token)
  const { wallet, reader } = clients(rpcUrl)
  const hash = await wallet.writeContract({
    address: token.address,
    abi: fiatTokenAdminAbi,
    functionName: paused ? 'pause' : 'unpause',
  })
  await reader.waitForTransactionReceipt({ hash })
  return hash
}

/** Blacklists (or clears) an address on a FiatToken: it can neither send nor receive it. */
export async function setBlacklisted(
  rpcUrl: string,
  token: TokenRef,
  account: Address,
  blacklisted: boolean,
): Promise<Hex> {
  checkFiatToken(token)
  const { wallet, reader } = clients(rpcUrl)
  const hash = await wallet.writeContract({
    address: token.address,
    abi: fiatTokenAdminAbi,
    functionName: blacklisted ? 'blacklist' : 'unBlacklist',
    args: [account],
  })
  await reader.waitForTransactionReceipt({ hash })
  return hash
}
