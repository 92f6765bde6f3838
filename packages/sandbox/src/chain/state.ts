import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ChainClients } from './clients.js'

/** What a chain state file must hold for anvil's --load-state. */
function isState(text: string) {
  try {
    const json = JSON.parse(text)
    return typeof json === 'object' && json !== null && 'accounts' in json && 'blocks' in json
  } catch {
    return false
  }
}

/** A state file that is present but cannot be used. */
export class StateFileError extends Error {}

/**
 * The chain's state on disk. anvil only ever loads it; the sandbox writes it (from
 * anvil_dumpState) atomically: a temporary file, fsync, the current file renamed to
 * `.prev`, the temporary renamed in place, fsync of the folder. A crash at any point
 * leaves a complete current or previous copy.
 */
export function createStateFile(dataDir: string) {
  const path = join(dataDir, 'chain-state.json')
  const prev = `${path}.prev`
  const tmp = `${path}.tmp`

  return {
    path,
    /** The file anvil should load (current, else the previous good copy), or undefined for a new chain. */
    loadable(log: (message: string) => void): string | undefined {
      const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined
      if (current !== undefined && isState(current)) return path
      const previous = existsSync(prev) ? readFileSync(prev, 'utf8') : undefined
      if (previous !== undefined && isState(previous)) {
        if (current !== undefined)
          log(
            `the chain state file ${path} is damaged (kept as ${path}.damaged); starting from the previous good copy ${prev}`,
          )
        if (current !== undefined) renameSync(path, `${path}.damaged`)
        return prev
      }
      if (current === undefined && previous === undefined) return undefined
      throw new StateFileError(
        `The chain state file ${path} is damaged and there is no good previous copy (${prev}). ` +
          `Move both aside (or delete the data folder ${dataDir}) to start with a new chain; ` +
          `the sessions in the database would no longer match it.`,
      )
    },
    /** Writes anvil's current state; throws (with what to do) when the disk refuses. */
    async save(chain: ChainClients) {
      const hex = await chain.testClient.dumpState()
      const json = gunzipSync(Buffer.from(hex.slice(2), 'hex'))
      try {
        const fd = openSync(tmp, 'w')
        try {
          writeSync(fd, json)
          fsyncSync(fd)
        } finally {
          closeSync(fd)
        }
        if (existsSync(path)) renameSync(path, prev)
        renameSync(tmp, path)
        const dir = openSync(dirname(path), 'r')
        try {
          fsyncSync(dir)
        } finally {
          closeSync(dir)
        }
      } catch (e) {
        try {
          rmSync(tmp, { force: true })
        } catch {}
        const code = (e as NodeJS.ErrnoException).code
        throw new StateFileError(
          `cannot write the chain state to ${path} (${code ?? e}): ${
            code === 'ENOSPC'
              ? 'the disk is full; free some space'
              : 'make the data folder writable or choose another with --data-dir'
          }. Payments are not recorded until it can be saved.`,
        )
      }
    },
  }
}
