import type { Client } from 'viem'
import {
  getLogs,
  getTransaction,
  getTransactionReceipt,
  readContract,
  waitForTransactionReceipt,
} from 'viem/actions'

// Script-tag build only: wagmi's getPublicClient extends the client with all of viem's public
// actions (ENS, simulateCalls, deployless bytecode...), about 40 KB gzip the checkout never runs.
// Core calls exactly these on it; anything else is reached through viem's getAction fallback.
// biome-ignore lint/suspicious/noExplicitAny: mirrors viem's decorator signature
type Args = any
export const publicActions = (client: Client) => ({
  getLogs: (args: Args) => getLogs(client, args),
  getTransaction: (args: Args) => getTransaction(client, args),
  getTransactionReceipt: (args: Args) => getTransactionReceipt(client, args),
  readContract: (args: Args) => readContract(client, args),
  waitForTransactionReceipt: (args: Args) => waitForTransactionReceipt(client, args),
})
