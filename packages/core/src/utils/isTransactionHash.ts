import type { Hex } from 'viem'

/** `0x` and 64 hex digits: the shape of a transaction hash. */
export const isTransactionHash = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)
