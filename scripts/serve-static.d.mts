import type { Server } from 'node:http'

/** See serve-static.mjs. */
export declare function serveStatic(options: {
  folder: string
  base?: string
  port?: number
  gzip?: boolean
}): Promise<{ server: Server; origin: string; url: string; close(): Promise<void> }>
