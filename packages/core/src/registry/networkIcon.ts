/**
 * A round network mark as an SVG `data:` URI: a colour and a white glyph (a path on 32×32).
 * @example networkIcon('#0052ff', 'M16 6a10 10 0 1 1 0 20a10 10 0 1 1 0-20z')
 */
export const networkIcon = (color: string, glyph: string): string =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="${color}"/><path fill="#fff" fill-rule="evenodd" d="${glyph}"/></svg>`,
  )}`
