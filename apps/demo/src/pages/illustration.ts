import type { Product } from '../catalog/products.js'
import { raw, type SafeHtml } from './html.js'

const shapes: Record<Product['shape'], (ink: string) => string> = {
  notebook: (ink) =>
    `<rect x="70" y="38" width="100" height="124" rx="8" fill="${ink}"/><rect x="80" y="38" width="6" height="124" fill="#00000022"/><rect x="150" y="38" width="8" height="124" fill="#f4c542"/><circle cx="120" cy="92" r="14" fill="none" stroke="#ffffff88" stroke-width="3"/>`,
  mug: (ink) =>
    `<path d="M78 62h74v72a22 22 0 0 1-22 22h-30a22 22 0 0 1-22-22z" fill="${ink}"/><path d="M152 78h10a18 18 0 0 1 0 36h-10" fill="none" stroke="${ink}" stroke-width="10"/><ellipse cx="115" cy="62" rx="37" ry="7" fill="#00000033"/><path d="M100 46c0-8 8-8 8-16M118 46c0-8 8-8 8-16" stroke="${ink}88" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  beanie: (ink) =>
    `<path d="M62 132c0-48 26-78 58-78s58 30 58 78z" fill="${ink}"/><rect x="56" y="124" width="128" height="30" rx="8" fill="${ink}"/><path d="M70 130v20M86 130v20M102 130v20M118 130v20M134 130v20M150 130v20M166 130v20" stroke="#ffffff33" stroke-width="4"/><circle cx="120" cy="48" r="14" fill="${ink}"/>`,
  tamper: (ink) =>
    `<path d="M104 40h32l6 70h-44z" fill="${ink}" rx="10"/><ellipse cx="120" cy="42" rx="18" ry="8" fill="${ink}"/><rect x="110" y="108" width="20" height="16" fill="#9aa3ad"/><rect x="88" y="122" width="64" height="26" rx="4" fill="#c3cad2"/><rect x="88" y="142" width="64" height="6" fill="#9aa3ad"/>`,
}

/** A small drawn picture of the product, so the shop needs no image files. */
export function illustration(product: Product): SafeHtml {
  const [paper, ink] = product.colors
  return raw(
    `<svg xmlns="http://www.w3.org/2000/svg" class="illustration" viewBox="0 0 240 190" role="img" aria-label="${product.name}"><rect width="240" height="190" fill="${paper}"/>${shapes[product.shape](ink)}</svg>`,
  )
}
