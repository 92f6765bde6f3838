import { generate } from 'lean-qr/nano'

// Loaded when a QR code is first shown: the wallet payment never needs it.

/** The QR code of `text` as one SVG path (one unit per module), drawn in the browser. */
export function qrPath(text: string): { size: number; d: string } {
  const code = generate(text)
  let d = ''
  for (let y = 0; y < code.size; y++)
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) d += `M${x} ${y}h1v1h-1z`
  return { size: code.size, d }
}
