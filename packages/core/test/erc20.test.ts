import { eip3009Abi, stablecoinAbi } from '@paysession/protocol'
import fc from 'fast-check'
import {
  type Address,
  bytesToHex,
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  toFunctionSelector,
} from 'viem'
import { describe, expect, test } from 'vitest'
import {
  addressWord,
  decodeTransferLog,
  decodeUint256,
  encodeBalanceOf,
  encodeTransfer,
  selector,
  transferTopic,
} from '../src/chain/erc20.js'
import { stablecoinAbi as exportedAbi } from '../src/exports/index.js'

// core's hand-written ERC-20 coder (chain/erc20.ts) against viem's ABI coder, on the one ABI.

const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b))
/** Any address, in the three spellings a caller may pass: checksummed, lower and upper case. */
const address = fc
  .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.constantFrom('sum', 'low', 'up'))
  .map(([bytes, spelling]) => {
    const checksummed = getAddress(bytesToHex(bytes))
    if (spelling === 'sum') return checksummed
    const body = checksummed.slice(2)
    return `0x${spelling === 'low' ? body.toLowerCase() : body.toUpperCase()}` as Address
  })
/** Amounts over the whole uint256 range, with its edges drawn often. */
const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: maxUint256 }),
  fc.constantFrom(0n, 1n, 10n ** 6n, 10n ** 18n, 2n ** 255n, maxUint256 - 1n, maxUint256),
)

describe('the one ABI', () => {
  test('core exports the ABI the encoder derives from', () => {
    expect(exportedAbi).toBe(stablecoinAbi)
  })

  test('selectors and topic derive from it and match viem', () => {
    expect(selector(stablecoinAbi[0])).toBe(toFunctionSelector('transfer(address,uint256)'))
    expect(selector(stablecoinAbi[1])).toBe(toFunctionSelector('balanceOf(address)'))
    expect(eip3009Abi[2].name).toBe('name')
    expect(selector(eip3009Abi[2])).toBe('0x06fdde03')
    expect(eip3009Abi[3].name).toBe('version')
    expect(selector(eip3009Abi[3])).toBe('0x54fd4d50')
    expect(transferTopic).toBe(encodeEventTopics({ abi: stablecoinAbi, eventName: 'Transfer' })[0])
    expect(transferTopic).toBe('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
    for (const name of ['transferWithAuthorization', 'authorizationState'] as const) {
      const item = eip3009Abi.find((entry) => entry.name === name)
      expect(selector(item!)).toBe(toFunctionSelector(item!))
    }
  })
})

describe('encoding, against viem', () => {
  test('transfer(to, value) for any address and any uint256', () => {
    fc.assert(
      fc.property(address, amount, (to, value) => {
        expect(encodeTransfer(to, value)).toBe(
          encodeFunctionData({
            abi: stablecoinAbi,
            functionName: 'transfer',
            args: [getAddress(to), value],
          }),
        )
      }),
      { numRuns: 500 },
    )
  })

  test('balanceOf(account) for any address', () => {
    fc.assert(
      fc.property(address, (account) => {
        expect(encodeBalanceOf(account)).toBe(
          encodeFunctionData({
            abi: stablecoinAbi,
            functionName: 'balanceOf',
            args: [getAddress(account)],
          }),
        )
      }),
    )
  })

  test('indexed address topics (the eth_getLogs filter) for any pair of addresses', () => {
    fc.assert(
      fc.property(address, address, (from, to) => {
        expect([transferTopic, addressWord(from), addressWord(to)]).toEqual(
          encodeEventTopics({
            abi: stablecoinAbi,
            eventName: 'Transfer',
            args: { from: getAddress(from), to: getAddress(to) },
          }),
        )
      }),
    )
  })
})

describe('decoding, against viem', () => {
  test('a uint256 return value, with or without trailing words', () => {
    fc.assert(
      fc.property(amount, fc.array(word, { maxLength: 2 }), (value, rest) => {
        const data = encodeAbiParameters([{ type: 'uint256' }], [value])
        expect(decodeUint256(data)).toBe(value)
        expect(decodeUint256(`${data}${rest.map((w) => w.slice(2)).join('')}` as Hex)).toBe(value)
      }),
    )
  })

  test('no return data (no contract at the address) is an error, not zero', () => {
    expect(() => decodeUint256('0x')).toThrow(/is the token deployed/)
    expect(() => decodeUint256('0x1234')).toThrow(/expected a uint256/)
  })

  test('a Transfer log decodes as viem decodes it', () => {
    fc.assert(
      fc.property(address, address, address, amount, word, (token, from, to, value, hash) => {
        const log = {
          address: token,
          topics: encodeEventTopics({
            abi: stablecoinAbi,
            eventName: 'Transfer',
            args: { from: getAddress(from), to: getAddress(to) },
          }) as [Hex, ...Hex[]],
          data: encodeAbiParameters([{ type: 'uint256' }], [value]),
          transactionHash: hash,
        }
        const viem = decodeEventLog({ abi: stablecoinAbi, ...log })
        expect(decodeTransferLog(log)).toEqual({
          token: getAddress(token),
          ...viem.args,
          transactionHash: hash,
        })
      }),
      { numRuns: 300 },
    )
  })

  test('any other log is not a Transfer: never a wrong amount', () => {
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
      fc.property(address, topics, data, word, (token, logTopics, logData, hash) => {
        fc.pre(!(logTopics.length === 3 && logTopics[0] === transferTopic && logData.length === 66))
        expect(
          decodeTransferLog({
            address: token,
            topics: logTopics as [Hex, ...Hex[]],
            data: logData,
            transactionHash: hash,
          }),
        ).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })
})
