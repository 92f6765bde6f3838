/** The part of the Web Storage API the SDK uses. `localStorage` fits. */
export type PaySessionStorage = {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * An in-memory storage. Share one between two configs to model two tabs or a reload.
 * @example createPaySessionConfig({ apiBase, storage: createMemoryStorage() })
 */
export function createMemoryStorage(): PaySessionStorage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

/** `localStorage` when it exists and works (not on a server, not in a locked-down iframe). */
export function getDefaultStorage(): PaySessionStorage {
  try {
    const storage = (globalThis as { localStorage?: PaySessionStorage }).localStorage
    if (storage) {
      storage.setItem('paysession:probe', '1')
      storage.removeItem('paysession:probe')
      return storage
    }
  } catch {
    // Storage disabled: fall through to memory, which still guards double clicks in this tab.
  }
  return createMemoryStorage()
}
