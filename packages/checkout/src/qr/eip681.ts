/**
 * An EIP-681 payment request for an ERC-20 `transfer`: what phone wallets and exchanges scan.
 * @example eip681Transfer({ token, chainId: 1, to, units: 10_000_000n })
 * // 'ethereum:0xA0b8…@1/transfer?address=0x…&uint256=10000000'
 */
export function eip681Transfer(parameters: {
  token: string
  chainId: number
  to: string
  units: bigint
}): string {
  const { token, chainId, to, units } = parameters
  return `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${units}`
}
