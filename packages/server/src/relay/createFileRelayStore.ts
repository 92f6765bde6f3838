import { existsSync, readFileSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createLocalNonceLock, type RelayRecord, type RelayStore, sameRecord } from './types.js'

/**
 * A durable relay store in one JSON file, for a relay that runs as one process: the records are
 * written to a temporary file, fsynced and renamed over the old one (then the folder is
 * fsynced), so a kill -9 leaves either the old records or the new ones, never half a file. A
 * restarted relay reads them back and still refuses a second authorization for a session whose
 * first one is pending. Changes made while a write is under way go to disk together in the next
 * one; each `set` and `delete` resolves once its change is on disk. This or your own table is
 * required: the relay has no in-memory default. It holds for ONE process only: its claims and
 * its nonce lock live in this process's memory, so several relay processes (replicas,
 * serverless instances) need a shared store instead: `createPostgresRelayStore` or
 * `createRedisRelayStore`.
 * @example createRelayHandler({ ..., store: createFileRelayStore('/var/lib/shop/relay.json') })
 */
export function createFileRelayStore(file: string): RelayStore {
  const records = new Map<string, RelayRecord>(
    existsSync(file)
      ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, RelayRecord>)
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

  /** Resolves once the records as they are now are on disk. */
  function persist(): Promise<void> {
    next ??= writing
      .catch(() => undefined)
      .then(() => {
        next = undefined
        writing = write(JSON.stringify(Object.fromEntries(records)))
        return writing
      })
    return next
  }

  return {
    get: (sessionId) => records.get(sessionId),
    claim(sessionId, record, replacing) {
      if (!sameRecord(records.get(sessionId), replacing)) return false
      records.set(sessionId, record)
      return persist().then(() => true)
    },
    set(sessionId, record) {
      records.set(sessionId, record)
      return persist()
    },
    release(sessionId, record) {
      if (!sameRecord(records.get(sessionId), record)) return
      records.delete(sessionId)
      return persist()
    },
    withNonce: createLocalNonceLock(),
  }
}
