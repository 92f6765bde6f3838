import type { JournalEntry } from '@paysession/browser-chain'
import type { MemoryState } from '@paysession/sandbox/inpage'
import type { Order } from '../src/server/orders.js'
import type { WebhookLogEntry } from '../src/server/webhookLog.js'

// The hosted demo's whole state in one IndexedDB database: the chain's journal (one record per
// step) and three snapshots (the service's tables, the merchant's orders, its webhook log).
//
// Crashes lose nothing the visitor was told about. Every write is its own transaction over both
// stores, so IndexedDB runs them in the order they were made: the chain answers a request only
// after its journal entry is written, and a snapshot that refers to a transaction is made after the
// chain answered, so it lands after that entry. A reload at any moment finds a journal at least as
// new as every snapshot; the service reconciles the rest on start (it rescans the chain's logs
// and rebroadcasts what it had signed), as it does after a restart on anvil.

const DB_NAME = 'paysession-hosted-demo'
const stores = ['journal', 'state'] as const

export type Saved = {
  genesisTimestamp: number | undefined
  journal: JournalEntry[]
  service: MemoryState | undefined
  orders: Order[]
  webhooks: WebhookLogEntry[]
}

export type Persistence = {
  /** False when this browser keeps no IndexedDB here (some private modes): nothing is saved. */
  durable: boolean
  saved: Saved
  appendJournal(entry: JournalEntry): Promise<void>
  /** A new chain's start in one write: its genesis time and its first steps, all or nothing. */
  begin(genesisTimestamp: number, journal: JournalEntry[]): Promise<void>
  put(key: 'genesisTimestamp' | 'service' | 'orders' | 'webhooks', value: unknown): Promise<void>
  close(): void
}

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })

const result = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })

function open(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1)
  request.onupgradeneeded = () => {
    request.result.createObjectStore('journal', { autoIncrement: true })
    request.result.createObjectStore('state')
  }
  return result(request)
}

/** Opens the demo's database and reads everything saved in it. */
export async function openPersistence(): Promise<Persistence> {
  const db = await open()
  const read = db.transaction([...stores], 'readonly')
  const state = read.objectStore('state')
  const [journal, genesisTimestamp, service, orders, webhooks] = await Promise.all([
    result(read.objectStore('journal').getAll() as IDBRequest<JournalEntry[]>),
    result(state.get('genesisTimestamp')),
    result(state.get('service')),
    result(state.get('orders')),
    result(state.get('webhooks')),
  ])
  const write = (fn: (tx: IDBTransaction) => void) => {
    // Made now, in call order: IndexedDB runs overlapping read-write transactions in that order.
    const tx = db.transaction([...stores], 'readwrite')
    fn(tx)
    return done(tx)
  }
  return {
    durable: true,
    saved: {
      genesisTimestamp,
      journal,
      service,
      orders: orders ?? [],
      webhooks: webhooks ?? [],
    },
    appendJournal: (entry) => write((tx) => tx.objectStore('journal').add(entry)),
    begin: (genesisTimestamp, journal) =>
      write((tx) => {
        tx.objectStore('state').put(genesisTimestamp, 'genesisTimestamp')
        for (const entry of journal) tx.objectStore('journal').add(entry)
      }),
    put: (key, value) => write((tx) => tx.objectStore('state').put(value, key)),
    close: () => db.close(),
  }
}

/** Where IndexedDB cannot be opened: the demo runs all the same, and forgets on reload. */
export function memoryPersistence(): Persistence {
  return {
    durable: false,
    saved: {
      genesisTimestamp: undefined,
      journal: [],
      service: undefined,
      orders: [],
      webhooks: [],
    },
    appendJournal: async () => {},
    begin: async () => {},
    put: async () => {},
    close: () => {},
  }
}

/** Deletes the demo's database: the next start is a new chain and an empty shop. */
export async function deletePersistence(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DB_NAME)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error)
    // Another tab still holds it open: it is deleted once that tab closes it.
    request.onblocked = () => resolve()
  })
}
