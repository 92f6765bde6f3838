import { stablecoinAbi } from '@paysession/protocol'
import fc from 'fast-check'
import {
  type Address,
  bytesToHex,
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  type Log,
  maxUint256,
  toFunctionSelector,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { encodeTransfer, parseTransfers } from '../src/chain/erc20.js'
import { stablecoinAbi as exportedAbi } from '../src/exports/index.js'

// The glue core puts around viem's ABI coder: which logs count as a payment's transfer.

const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b))
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => getAddress(bytesToHex(b)))
const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: maxUint256 }),
  fc.constantFrom(0n, 1n, 10n ** 6n, maxUint256),
)
const transferTopic = encodeEventTopics({ abi: stablecoinAbi, eventName: 'Transfer' })[0]

const log = (parts: { address: Address; topics: Hex[]; data: Hex }): Log =>
  ({
    ...parts,
    blockHash: null,
    blockNumber: null,
    logIndex: null,
    transactionHash: null,
    transactionIndex: null,
    removed: false,
  }) as unknown as Log
const transferLog = (token: Address, from: Address, to: Address, value: bigint) =>
  log({
    address: token,
    topics: encodeEventTopics({
      abi: stablecoinAbi,
      eventName: 'Transfer',
      args: { from, to },
    }) as Hex[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  })

describe('the one ABI', () => {
  test('core exports it, and a payment calls transfer(address,uint256) with no return value', () => {
    expect(exportedAbi).toBe(stablecoinAbi)
    const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const data = encodeTransfer(to, 10n ** 6n)
    expect(data.slice(0, 10)).toBe(toFunctionSelector('transfer(address,uint256)'))
    expect(data).toHaveLength(2 + 8 + 64 * 2)
    expect(stablecoinAbi[0].outputs).toEqual([])
  })
})

describe('parseTransfers', () => {
  test('keeps a Transfer of the token to the one-time wallet, with its exact value', () => {
    fc.assert(
      fc.property(address, address, address, amount, (token, from, to, value) => {
        const [found] = parseTransfers([transferLog(token, from, to, value)], { token, from, to })
        expect(found?.args).toEqual({ from, to, value })
      }),
      { numRuns: 200 },
    )
  })

  test('another token, sender or recipient, or a removed log, is not this payment', () => {
    fc.assert(
      fc.property(address, address, address, address, amount, (token, from, to, other, value) => {
        fc.pre(other !== token && other !== from && other !== to)
        const logs = [transferLog(token, from, to, value)]
        expect(parseTransfers(logs, { token: other, from, to })).toEqual([])
        expect(parseTransfers(logs, { token, from: other, to })).toEqual([])
        expect(parseTransfers(logs, { token, from, to: other })).toEqual([])
        expect(parseTransfers([{ ...logs[0]!, removed: true }], { token, to })).toEqual([])
      }),
      { numRuns: 100 },
    )
  })

  test('any other log (an ERC-721 transfer, a wrong data length) is not a Transfer: never a wrong amount', () => {
    const topics = fc.oneof(
      fc.array(word, { maxLength: 5 }),
      // Transfer's topic with the wrong number of indexed words (ERC-721 has a fourth).
      fc
        .array(word, { maxLength: 4 })
        .filter((t) => t.length !== 2)
        .map((t) => [transferTopic, ...t]),
    )
    const data = fc.oneof(
      fc.constant('0x' as Hex),
      fc
        .uint8Array({ maxLength: 96 })
        .filter((b) => b.length !== 32)
        .map((b) => bytesToHex(b)),
    )
    fc.assert(
      fc.property(address, topics, data, (token, logTopics, logData) => {
        fc.pre(!(logTopics.length === 3 && logTopics[0] === transferTopic && logData.length === 66))
        expect(
          parseTransfers([log({ address: token, topics: logTopics as Hex[], data: logData })], {
            token,
          }),
        ).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})
