/** Markup that is already safe: interpolating it does not escape it again. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

type Value = SafeHtml | string | number | boolean | null | undefined | Value[]

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

function render(value: Value): string {
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(String(value))
}

/** Tagged template that escapes every interpolation (arrays are joined, `false`/nullish drop out). */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!
  })
  return new SafeHtml(out)
}

/** Trusted markup, e.g. a drawn SVG. */
export const raw = (markup: string) => new SafeHtml(markup)

/** "0x1234…abcd" for display; the full value goes in a title attribute. */
export function short(value: string | null | undefined, head = 6, tail = 4): string {
  if (!value) return '—'
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value
}
