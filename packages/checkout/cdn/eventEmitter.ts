// The part of eventemitter3 that @wagmi/core's createEmitter uses (on, once, off, emit,
// listenerCount), as an ES module. The script-tag build uses it in place of eventemitter3
// (vite.config.ts): 1 KB gzip smaller, and no CommonJS interop helpers. Same semantics:
// listeners run in the order added, a `once` listener is removed before it runs, and a listener
// added or removed during an emit takes effect from the next emit. test/cdn.test.ts checks them.

type Listener = { fn: (...args: unknown[]) => void; once: boolean }

export class EventEmitter {
  #events = new Map<string | symbol, Listener[]>()

  #add(event: string | symbol, fn: Listener['fn'], once: boolean) {
    this.#events.set(event, [...(this.#events.get(event) ?? []), { fn, once }])
    return this
  }
  on(event: string | symbol, fn: Listener['fn']) {
    return this.#add(event, fn, false)
  }
  once(event: string | symbol, fn: Listener['fn']) {
    return this.#add(event, fn, true)
  }
  /** Without `fn`, removes every listener of the event; `once`: only the `once` ones of `fn`. */
  off(event: string | symbol, fn?: Listener['fn'], _context?: unknown, once?: boolean) {
    const kept = (this.#events.get(event) ?? []).filter(
      (listener) => fn && (listener.fn !== fn || (once && !listener.once)),
    )
    if (kept.length) this.#events.set(event, kept)
    else this.#events.delete(event)
    return this
  }
  emit(event: string | symbol, ...args: unknown[]) {
    const listeners = this.#events.get(event)
    if (!listeners) return false
    for (const listener of listeners) {
      if (listener.once) this.off(event, listener.fn, undefined, true)
      listener.fn(...args)
    }
    return true
  }
  listenerCount(event: string | symbol) {
    return this.#events.get(event)?.length ?? 0
  }
}

export default EventEmitter
