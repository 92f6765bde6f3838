// The script-tag build's QueryClient is core's own (the element takes no queryClient), and core
// only polls the session with a QueryObserver: no mutation and no infinite query ever runs. Yet
// QueryClient imports the mutation cache and Query the infinite-query behaviour, 1.7 KB gzip of
// the payment. vite.config.ts resolves query-core's ./mutationCache.js and
// ./infiniteQueryBehavior.js to this module in that build, and checks first that QueryClient
// calls nothing else on its mutation cache. A call that would need them throws.

const unavailable = (what: string) => () => {
  throw new Error(`${what} are not part of the paysession script-tag build`)
}

/** An empty mutation cache: what QueryClient asks of it (findAll, resumePausedMutations, clear). */
export class MutationCache {
  findAll() {
    return []
  }
  getAll() {
    return []
  }
  resumePausedMutations() {
    return Promise.resolve()
  }
  clear() {}
  build = unavailable('mutations')
}

export const infiniteQueryBehavior = unavailable('infinite queries')
export const hasNextPage = unavailable('infinite queries')
export const hasPreviousPage = unavailable('infinite queries')
