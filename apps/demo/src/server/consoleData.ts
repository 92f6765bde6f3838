import type { PaySessionClient } from '@paysession/server'
import type { ConsoleData } from '../pages/console.js'
import type { BalanceReader } from './balances.js'
import type { OrderStore } from './orders.js'
import type { WebhookLog } from './webhookLog.js'

export type ConsoleSources = {
  client: PaySessionClient
  orders: OrderStore
  webhooks: WebhookLog
  balances: BalanceReader
  treasury: string
  tokens: string[]
  facts: ConsoleData['facts']
}

/**
 * What the merchant console shows: the newest sessions, the selected one (or the newest), its
 * accounts' on-chain balances and the webhook log. The Node demo and the hosted page both ask here.
 */
export async function readConsoleData(
  sources: ConsoleSources,
  selectedId: string | null,
): Promise<ConsoleData> {
  const { client } = sources
  const sessions = (await client.listSessions()).slice(0, 25)
  const pick = selectedId ?? sessions[0]?.paymentSessionId
  const selected = pick
    ? (sessions.find((s) => s.paymentSessionId === pick) ??
      (await client.getSession(pick).catch(() => undefined)))
    : undefined
  const accounts: { label: string; address: string | null | undefined }[] = [
    { label: 'One-time wallet', address: selected?.oneTimeWalletAddress },
    { label: 'Customer', address: selected?.userAddress },
    { label: 'Treasury', address: sources.treasury },
  ]
  const balances = await Promise.all(
    accounts
      .filter((a): a is { label: string; address: string } => Boolean(a.address))
      .map(async (a) => ({ ...a, values: await sources.balances.of(a.address) })),
  )
  return {
    sessions,
    selected,
    orders: (id) => sources.orders.get(id),
    balances,
    tokens: sources.tokens,
    webhooks: sources.webhooks.entries.slice(0, 50),
    facts: sources.facts,
  }
}
