// zustand's `persist` middleware as wagmi's createConfig uses it, for the script-tag build
// (vite.config.ts): the built wagmi config keeps its connections in localStorage through wagmi's
// storage (async getItem), so that a reload reconnects the same wallet. zustand's own handles
// synchronous storages, hydration listeners, option changes and JSON storages besides: 0.6 KB
// gzip of the payment that wagmi never calls. The build checks which options createConfig passes
// (always a migrate function) and what it calls on `store.persist`; `test/cdn.test.ts` compares this with zustand's.

type State = Record<string, unknown>
type Stored = { state: unknown; version?: number }
type Api = {
  getState(): State
  setState(state: unknown, replace?: boolean): void
  getInitialState?: () => State
  persist?: { hasHydrated(): boolean; rehydrate(): Promise<void> }
}
type Options = {
  name: string
  version: number
  storage: {
    getItem(name: string): Promise<Stored | null> | Stored | null
    setItem(name: string, value: Stored): unknown
  }
  partialize(state: State): unknown
  merge(persisted: unknown, current: State): State
  migrate(persisted: unknown, version: number): unknown
  skipHydration?: boolean
}
type Setter = (...args: unknown[]) => void
type Initializer = (set: Setter, get: () => State, api: Api) => State

export const persist =
  (config: Initializer, options: Options): Initializer =>
  (set, get, api) => {
    const { name, version, storage } = options
    let hydrated = false
    const save = () => storage.setItem(name, { state: options.partialize({ ...get() }), version })
    const setState = api.setState
    api.setState = (state, replace) => {
      setState(state, replace)
      void save()
    }
    const initial = config(
      (...args) => {
        set(...args)
        void save()
      },
      get,
      api,
    )
    api.getInitialState = () => initial
    // The same steps as zustand's: read, migrate an older version, merge, then mark hydrated.
    const hydrate = () => {
      hydrated = false
      return Promise.resolve(storage.getItem(name))
        .then((stored): [boolean, unknown] => {
          if (!stored) return [false, undefined]
          if (typeof stored.version !== 'number' || stored.version === version)
            return [false, stored.state]
          return [true, options.migrate(stored.state, stored.version)]
        })
        .then(([migrated, state]) => {
          set(options.merge(state, get() ?? initial), true)
          if (migrated) return save()
        })
        .then(() => {
          hydrated = true
        })
        .catch(() => {})
    }
    api.persist = { hasHydrated: () => hydrated, rehydrate: hydrate }
    if (!options.skipHydration) void hydrate()
    return initial
  }
