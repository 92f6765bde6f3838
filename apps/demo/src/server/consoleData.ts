import type { WebhookBacklog } from '@paysession/sandbox'
import type { ConsoleData } from '../pages/console.js'
import type { BalanceReader } from './balances.js'
import type { OrderStore } from './orders.js'
import type { SessionReader } from './sessions.js'
import type { WebhookLog } from './webhookLog.js'

export type ConsoleSources = {
  sessions: SessionReader
  orders: OrderStore
  webhooks: WebhookLog
  /** The sandbox's undelivered status updates. */
  backlog?: (() => WebhookBacklog) | undefined
  balances: BalanceReader
  treasury: string
  tokens: string[]
  facts: ConsoleData['facts']
}

/**
 * What the merchant console shows: the shop's newest orders with their sessions, the selected
 * one (or the newest), its accounts' on-chain balances and the webhook log. The Node demo and the
 * hosted page both ask here.
 */
export async function readConsoleData(
  sources: ConsoleSources,
  selectedId: string | null,
): Promise<ConsoleData> {
  // The shop's own order list: the spec has no way to list sessions.
  const unknown = { session: undefined, unavailable: 'The service does not know this session.' }
  const read = (id: string) => sources.sessions.read(id).catch(() => unknown)
  const rows = await Promise.all(
    sources.orders
      .list(25)
      .map(async (order) => ({ order, ...(await read(order.paymentSessionId)) })),
  )
  const pick = selectedId ?? rows[0]?.order.paymentSessionId
  const picked = pick
    ? (rows.find((row) => row.order.paymentSessionId === pick) ?? (await read(pick)))
    : undefined
  const selected = picked?.session
  const accounts: { label: string; address: string | null | undefined }[] = [
    { label: 'One-time wallet', address: selected?.oneTimeWalletAddress },
    { label: 'Customer', address: selected?.userAddress },
    { label: 'Treasury', address: sources.treasury },
  ]
  const balances = await Promise.all(
    accounts
      .filter((a): a is { label: string; address: string } => Boolean(a.address))
      .map(async (a) => ({
        ...a,
        // The chain out of reach shows dashes, not an error page.
        values: await sources.balances.of(a.address).catch(() => ({})),
      })),
  )
  return {
    sessions: rows,
    selected,
    selectedId: pick ?? undefined,
    unavailable: picked?.unavailable,
    orders: (id) => sources.orders.get(id),
    balances,
    tokens: sources.tokens,
    backlog: readBacklog(sources.backlog),
    webhooks: sources.webhooks.entries.slice(0, 50),
    facts: sources.facts,
  }
}

/** The sandbox's webhook backlog, or nothing while the service cannot be read (it is down). */
function readBacklog(read: (() => WebhookBacklog) | undefined): WebhookBacklog | undefined {
  try {
    return read?.()
  } catch {
    return undefined
  }
}
