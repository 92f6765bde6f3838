import { createPublicClient, erc20Abi, formatUnits, getAddress, type Transport } from 'viem'

export type Token = { symbol: string; address: `0x${string}`; decimals: number }

export type BalanceReader = {
  /** Balances of one address in every token, as decimal strings ("10000.00"). */
  of(address: string): Promise<Record<string, string>>
}

function display(value: bigint, decimals: number): string {
  const text = formatUnits(value, decimals)
  const [whole, fraction = ''] = text.split('.')
  return `${whole}.${fraction.padEnd(2, '0')}`
}

/**
 * Reads ERC-20 balances straight from the chain, as a merchant's explorer would: the sandbox's
 * anvil (`http(rpcUrl)`) or the hosted demo's in-page chain (`custom(chain)`).
 */
export function createBalanceReader(transport: Transport, tokens: Token[]): BalanceReader {
  const client = createPublicClient({ transport })
  return {
    async of(address) {
      const owner = getAddress(address)
      const values = await Promise.all(
        tokens.map((t) =>
          client.readContract({
            address: t.address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [owner],
          }),
        ),
      )
      return Object.fromEntries(tokens.map((t, i) => [t.symbol, display(values[i]!, t.decimals)]))
    },
  }
}
