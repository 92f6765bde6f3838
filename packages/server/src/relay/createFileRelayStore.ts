import { existsSync, readFileSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { RelayStore } from './types.js'

/**
 * A durable relay store in one JSON file, for a relay that runs as one process: the values are
 * written to a temporary file, fsynced and renamed over the old one (then the folder is
 * fsynced), so a kill -9 leaves either the old values or the new ones, never half a file. A
 * restarted relay reads them back and still refuses a second authorization for a session whose
 * first one is pending. Changes made while a write is under way go to disk together in the next
 * one; each change resolves once it is on disk. It holds for ONE process only: several relay
 * processes (replicas, serverless instances) need a shared store instead:
 * `createPostgresRelayStore` or `createRedisRelayStore`.
 * @example createRelayHandler({ ..., store: createFileRelayStore('/var/lib/shop/relay.json') })
 */
export function createFileRelayStore(file: string): RelayStore {
  const values = new Map<string, string>(
    existsSync(file)
      ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)
      : [],
  )
  let writing: Promise<void> = Promise.resolve()
  let next: Promise<void> | undefined

  async function write(text: string) {
    const temporary = `${file}.tmp`
    const handle = await open(temporary, 'w')
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
    const folder = await open(dirname(file), 'r')
    try {
      await folder.sync()
    } finally {
      await folder.close()
    }
  }

  /** Resolves once the values as they are now are on disk. */
  function persist(): Promise<void> {
    next ??= writing
      .catch(() => undefined)
      .then(() => {
        next = undefined
        writing = write(JSON.stringify(Object.fromEntries(values)))
        return writing
      })
    return next
  }

  return {
    get: (key) => values.get(key),
    compareAndSet(key, value, expected) {
      if (values.get(key) !== expected) return false
      if (value === undefined) values.delete(key)
      else values.set(key, value)
      return persist().then(() => true)
    },
  }
}
