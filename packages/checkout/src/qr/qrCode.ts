import { html } from 'lit'
import { qrPath } from './qrPath.js'

/** `text` as a QR code: an SVG with a quiet zone, named for screen readers by `label`. */
export function qrCode(text: string, label: string) {
  const qr = qrPath(text)
  return html`<svg part="qr" role="img" viewBox="-2 -2 ${qr.size + 4} ${qr.size + 4}"
    shape-rendering="crispEdges" aria-label=${label}>
    <path fill="#000" d=${qr.d}></path>
  </svg>`
}
