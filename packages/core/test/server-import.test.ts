import { expect, test } from 'vitest'

test('importing core on a server reads no window, document or storage', async () => {
  const touched: { name: string; at: string }[] = []
  const names = ['window', 'document', 'localStorage', 'sessionStorage', 'indexedDB']
  for (const name of names)
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push({ name, at: new Error().stack?.split('\n')[2]?.trim() ?? '' })
        return undefined
      },
    })
  try {
    const core = await import('../src/exports/index.js')
    expect(typeof core.createCheckout).toBe('function')
    // query-core decides `isServer` with `typeof window` when it loads; nothing else may look.
    expect(touched.filter((t) => !t.at.includes('@tanstack/query-core'))).toEqual([])
  } finally {
    for (const name of names) delete (globalThis as Record<string, unknown>)[name]
  }
})
