import { formatTransactionReceipt, type RpcTransactionReceipt } from 'viem'
import { expect, test } from 'vitest'
import { formatReceipt } from '../src/chain/rpc.js'

// Receipts as nodes send them (hex quantities), in every shape viem's formatter distinguishes.
const log = {
  address: '0x1c7d4b196cb0c7b01d743fbc6116a902379c7238',
  topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
  data: '0x00000000000000000000000000000000000000000000000000000000000f4240',
  blockHash: '0x9a2f6b4c5d1e0f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a',
  blockNumber: '0x10',
  logIndex: '0x0',
  transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  transactionIndex: '0x1',
  removed: false,
} as const
const base = {
  blockHash: log.blockHash,
  blockNumber: '0x10',
  contractAddress: null,
  cumulativeGasUsed: '0x1d8a8',
  effectiveGasPrice: '0x3b9aca00',
  from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  gasUsed: '0xb4ed',
  logs: [log],
  logsBloom: `0x${'0'.repeat(512)}`,
  status: '0x1',
  to: '0x1c7d4b196cb0c7b01d743fbc6116a902379c7238',
  transactionHash: log.transactionHash,
  transactionIndex: '0x1',
  type: '0x2',
}
const receipts = {
  eip1559: base,
  reverted: { ...base, status: '0x0', logs: [] },
  legacy: { ...base, type: '0x0', transactionIndex: '0x0' },
  deployment: { ...base, to: null, contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  blob: { ...base, type: '0x3', blobGasPrice: '0x1', blobGasUsed: '0x20000' },
  // A type viem does not name (an OP Stack deposit) keeps its hex.
  deposit: { ...base, type: '0x7e' },
}

test.each(Object.entries(receipts))(
  '%s: formatReceipt is viem formatTransactionReceipt',
  (_, rpc) => {
    const receipt = rpc as unknown as RpcTransactionReceipt
    expect(formatReceipt(receipt)).toStrictEqual(formatTransactionReceipt(receipt))
  },
)

test('the fields core reads come out typed', () => {
  const receipt = formatReceipt(receipts.eip1559 as unknown as RpcTransactionReceipt)
  expect(receipt.status).toBe('success')
  expect(receipt.blockNumber).toBe(16n)
  expect(receipt.logs[0]!.logIndex).toBe(0)
  expect(receipt.logs[0]!.blockNumber).toBe(16n)
})
