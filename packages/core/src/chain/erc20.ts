import { type Address, getAddress, type Hex, hexToBigInt, pad, type RpcLog, toHex } from 'viem'

// The three ERC-20 pieces the checkout needs, encoded by hand: viem's ABI coder and its errors
// weigh more than the rest of the wallet layer, for two fixed selectors and one event.

/** `keccak256('Transfer(address,address,uint256)')`. */
export const transferTopic: Hex =
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** An address as a 32-byte word (call argument or indexed topic), lower-case. */
export const addressWord = (address: Address): Hex => pad(address.toLowerCase() as Hex)

const uintWord = (value: bigint): Hex => toHex(value, { size: 32 })

/**
 * Calldata of `transfer(to, value)`. Nothing decodes its return value, so tokens whose transfer
 * returns nothing (mainnet USDT) and standard ones are paid the same way.
 */
export function encodeTransfer(to: Address, value: bigint): Hex {
  return `0xa9059cbb${addressWord(to).slice(2)}${uintWord(value).slice(2)}`
}

/** Calldata of `balanceOf(account)`. */
export function encodeBalanceOf(account: Address): Hex {
  return `0x70a08231${addressWord(account).slice(2)}`
}

/** The `uint256` an `eth_call` returned. No data (no contract at the address) is an error. */
export function decodeUint256(data: Hex): bigint {
  if (!/^0x[0-9a-fA-F]{64}/.test(data))
    throw new Error(`expected a uint256 return value, got "${data}" (is the token deployed?)`)
  return hexToBigInt(data.slice(0, 66) as Hex)
}

export type TransferLog = {
  token: Address
  from: Address
  to: Address
  value: bigint
  transactionHash: Hex | null
}

/**
 * An ERC-20 `Transfer` log decoded, or undefined for any other log (including ERC-721 transfers,
 * whose token id is a fourth topic).
 */
export function decodeTransferLog(
  log: Pick<RpcLog, 'address' | 'topics' | 'data' | 'transactionHash'>,
): TransferLog | undefined {
  const [topic, from, to] = log.topics
  if (log.topics.length !== 3 || topic?.toLowerCase() !== transferTopic || !from || !to) return
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return
  return {
    token: getAddress(log.address),
    from: getAddress(`0x${from.slice(-40)}`),
    to: getAddress(`0x${to.slice(-40)}`),
    value: hexToBigInt(log.data),
    transactionHash: log.transactionHash,
  }
}
