import type { ContextObject, Result, RunOptions } from 'axe-core'

/** See axe.mjs. */
export declare function axeViolations(
  page: {
    evaluate(pageFunction: string | ((arg: never) => unknown), arg?: unknown): Promise<unknown>
  },
  context?: ContextObject,
  options?: RunOptions,
): Promise<Result[]>
