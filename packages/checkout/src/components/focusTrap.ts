// Focus in a modal, as the WAI-ARIA dialog pattern asks: what Tab can reach, Tab and Shift+Tab
// kept inside, and where focus goes back on close. Every modal view of the widget uses it.

/** The controls Tab reaches. */
export const focusable = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'

/** Keeps Tab inside `container` (in `root`): past the last control to the first, and back. */
export function trapFocus(event: KeyboardEvent, container: Element | null, root: ShadowRoot) {
  if (event.key !== 'Tab') return
  const items = [...(container?.querySelectorAll<HTMLElement>(focusable) ?? [])]
  const [from, to] = event.shiftKey ? [items[0], items.at(-1)] : [items.at(-1), items[0]]
  const active = root.activeElement
  if (active && active !== from) return
  event.preventDefault()
  to?.focus()
}

/** The focused element through open shadow roots: where focus returns when the modal closes. */
export function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
  return element instanceof HTMLElement ? element : null
}
