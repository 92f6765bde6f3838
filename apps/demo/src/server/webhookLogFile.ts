import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
} from 'node:fs'
import { maxEntries, type WebhookLogEntry, type WebhookLogStore } from './webhookLog.js'

const keyOf = (entry: WebhookLogEntry) =>
  entry.logId ?? `${entry.receivedAt} ${entry.id} ${entry.outcome}`

/**
 * Entries from an append-only JSONL file, newest first. A later line for the same entry (its
 * forwarding result) replaces the earlier one; a line torn by a crash is skipped.
 */
function load(file: string): WebhookLogEntry[] {
  if (!existsSync(file)) return []
  const byKey = new Map<string, WebhookLogEntry>()
  const text = readFileSync(file, 'utf8')
  // A torn last line must not swallow the next entry: start it on a line of its own.
  if (text && !text.endsWith('\n')) appendFileSync(file, '\n')
  for (const line of text.split('\n')) {
    try {
      if (!line) continue
      const entry = JSON.parse(line) as WebhookLogEntry
      byKey.set(keyOf(entry), entry)
    } catch {}
  }
  return [...byKey.values()].reverse().slice(0, maxEntries)
}

/**
 * The log's file: one JSON line per entry, appended and fsynced, so kill -9 loses at most the
 * line being written. When it holds twice the kept entries it is rewritten (temp file, fsync,
 * rename), so the file never holds half a log.
 */
function createLogFile(file: string, initial: number) {
  let lines = initial
  const write = (path: string, text: string, append: boolean) => {
    const fd = openSync(path, append ? 'a' : 'w')
    try {
      appendFileSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
  return {
    append(entry: WebhookLogEntry, entries: WebhookLogEntry[]) {
      write(file, `${JSON.stringify(entry)}\n`, true)
      if (++lines <= maxEntries * 2) return
      const text = entries
        .slice()
        .reverse()
        .map((e) => `${JSON.stringify(e)}\n`)
        .join('')
      write(`${file}.tmp`, text, false)
      renameSync(`${file}.tmp`, file)
      lines = entries.length
    },
  }
}

/** The Node demo's webhook log store: `demo-webhooks.jsonl` in the data folder. */
export function webhookLogFile(file: string): WebhookLogStore {
  let writer: ReturnType<typeof createLogFile> | undefined
  return {
    load() {
      const entries = load(file)
      writer = createLogFile(file, entries.length)
      return entries
    },
    append(entry, entries) {
      writer ??= createLogFile(file, 0)
      writer.append(entry, entries)
    },
  }
}
