import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { Order, OrderPersistence } from './orders.js'

/** The Node demo's orders: `demo-orders.json` in the data folder, replaced atomically. */
export function orderFile(file: string): OrderPersistence {
  return {
    load() {
      if (!existsSync(file)) return []
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Order[]
      } catch {
        // A damaged file only loses the demo's order notes; the sessions live in the sandbox.
        return []
      }
    },
    save(orders) {
      writeFileSync(`${file}.tmp`, JSON.stringify(orders, null, 2))
      renameSync(`${file}.tmp`, file)
    },
  }
}
