import { generate } from 'lean-qr/nano'

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

/** The QR code of `text` as one SVG path (one unit per module), drawn in the browser. */
export function qrPath(text: string): { size: number; d: string } {
  const code = generate(text)
  let d = ''
  for (let y = 0; y < code.size; y++)
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) d += `M${x} ${y}h1v1h-1z`
  return { size: code.size, d }
}
