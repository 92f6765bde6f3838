import { abiSignature, stablecoinAbi } from '@paysession/protocol'
import {
  type Address,
  getAddress,
  type Hex,
  hexToBigInt,
  keccak256,
  pad,
  type RpcLog,
  stringToHex,
  toHex,
} from 'viem'

// The ERC-20 pieces the checkout needs, encoded by hand: viem's ABI coder and its errors weigh
// more than the rest of the wallet layer, for a few fixed selectors and one event. Selectors and
// topic are derived from the one ABI (`stablecoinAbi` of @paysession/protocol), never written out.

type AbiItem = Parameters<typeof abiSignature>[0]
const signatureHash = (item: AbiItem): Hex => keccak256(stringToHex(abiSignature(item)))

/** The 4-byte selector of an ABI function (of `stablecoinAbi`, `eip3009Abi`). */
export const selector = (item: AbiItem): Hex => signatureHash(item).slice(0, 10) as Hex

const [transfer, balanceOf, transferEvent] = stablecoinAbi
/** The `Transfer(address,address,uint256)` event's topic. */
export const transferTopic: Hex = signatureHash(transferEvent)
const transferSelector = selector(transfer)
const balanceOfSelector = selector(balanceOf)

/** An address as a 32-byte word (call argument or indexed topic), lower-case. */
export const addressWord = (address: Address): Hex => pad(address.toLowerCase() as Hex)

const uintWord = (value: bigint): Hex => toHex(value, { size: 32 })

/**
 * Calldata of `transfer(to, value)`. Nothing decodes its return value, so tokens whose transfer
 * returns nothing (mainnet USDT) and standard ones are paid the same way.
 */
export function encodeTransfer(to: Address, value: bigint): Hex {
  return `${transferSelector}${addressWord(to).slice(2)}${uintWord(value).slice(2)}`
}

/** Calldata of `balanceOf(account)`. */
export function encodeBalanceOf(account: Address): Hex {
  return `${balanceOfSelector}${addressWord(account).slice(2)}`
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
