import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import type { RelayRecord, RelayStore } from './types.js'

/**
 * A durable relay store in one JSON file, for a relay that runs as one process: every `set` is
 * written to a temporary file, fsynced and renamed over the old one (then the folder is
 * fsynced), so a kill -9 leaves either the old records or the new ones, never half a file. A
 * restarted relay reads them back and still refuses a second authorization for a session whose
 * first one is pending. This or your own table is required: the relay has no in-memory default.
 * Several relay processes need a shared store instead (a database table keyed by session id).
 * @example createRelayHandler({ ..., store: createFileRelayStore('/var/lib/shop/relay.json') })
 */
export function createFileRelayStore(file: string): RelayStore {
  const records = new Map<string, RelayRecord>(
    existsSync(file)
      ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, RelayRecord>)
      : [],
  )
  function write() {
    const temporary = `${file}.tmp`
    const fd = openSync(temporary, 'w')
    try {
      writeSync(fd, JSON.stringify(Object.fromEntries(records)))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, file)
    const folder = openSync(dirname(file), 'r')
    try {
      fsyncSync(folder)
    } finally {
      closeSync(folder)
    }
  }
  return {
    get: (sessionId) => records.get(sessionId),
    set(sessionId, record) {
      records.set(sessionId, record)
      write()
    },
    delete(sessionId) {
      if (records.delete(sessionId)) write()
    },
  }
}
