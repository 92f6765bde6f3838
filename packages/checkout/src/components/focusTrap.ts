// Focus in a modal, as the WAI-ARIA dialog pattern asks: what Tab can reach, Tab and Shift+Tab
// kept inside, and where focus goes back on close. Every modal view of the widget uses it.

/** The controls Tab reaches. */
export const focusable = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'

/** Keeps Tab inside `container` (in `root`): past the last control to the first, and back. */
export function trapFocus(event: KeyboardEvent, container: Element | null, root: ShadowRoot) {
  if (event.key !== 'Tab') return
  const items = [...(container?.querySelectorAll<HTMLElement>(focusable) ?? [])]
  const first = items[0]
  const last = items[items.length - 1]
  const active = root.activeElement
  if (event.shiftKey && (active === first || !active)) {
    event.preventDefault()
    last?.focus()
  } else if (!event.shiftKey && (active === last || !active)) {
    event.preventDefault()
    first?.focus()
  }
}

/** The focused element through open shadow roots: where focus returns when the modal closes. */
export function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
  return element instanceof HTMLElement ? element : null
}
