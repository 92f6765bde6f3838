import {
  type Address,
  type Client,
  formatLog,
  type Hex,
  hexToBigInt,
  hexToNumber,
  numberToHex,
  type RpcLog,
  type RpcTransactionReceipt,
  type TransactionReceipt,
} from 'viem'
import { addressWord, decodeUint256, encodeBalanceOf, transferTopic } from './erc20.js'

// The JSON-RPC calls core makes, straight on a viem client's `request` (its transport keeps the
// retries, time-outs and typed RPC errors). viem's actions do the same behind ABI coders,
// formatters, ccip, multicall and chain serializers that a checkout never needs.

/** A client from wagmi's `getClient` (reads) or `getConnectorClient` (the wallet). */
export type RpcClient = Pick<Client, 'request'>

export async function getBlockNumber(client: RpcClient): Promise<bigint> {
  return hexToBigInt(await client.request({ method: 'eth_blockNumber' }))
}

export async function getNativeBalance(client: RpcClient, account: Address): Promise<bigint> {
  return hexToBigInt(
    await client.request({ method: 'eth_getBalance', params: [account, 'latest'] }),
  )
}

/** The account's contract code: `0x` for a plain account. */
export async function getCode(client: RpcClient, account: Address): Promise<Hex> {
  return (await client.request({ method: 'eth_getCode', params: [account, 'latest'] })) ?? '0x'
}

/** `token.balanceOf(account)`. */
export async function getTokenBalance(
  client: RpcClient,
  token: Address,
  account: Address,
): Promise<bigint> {
  const data = await client.request({
    method: 'eth_call',
    params: [{ to: token, data: encodeBalanceOf(account) }, 'latest'],
  })
  return decodeUint256(data)
}

/** The next nonce of `account` in the latest block. */
export async function getTransactionCount(client: RpcClient, account: Address): Promise<number> {
  return hexToNumber(
    await client.request({ method: 'eth_getTransactionCount', params: [account, 'latest'] }),
  )
}

/** The receipt, or undefined while the transaction is not mined (or not known). */
export async function getTransactionReceipt(
  client: RpcClient,
  hash: Hex,
): Promise<TransactionReceipt | undefined> {
  const receipt = await client.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  return receipt ? formatReceipt(receipt) : undefined
}

const quantity = (value: Hex | null | undefined) => (value ? BigInt(value) : null)
const statuses: Record<string, 'success' | 'reverted'> = { '0x0': 'reverted', '0x1': 'success' }
const types: Record<string, string> = {
  '0x0': 'legacy',
  '0x1': 'eip2930',
  '0x2': 'eip1559',
  '0x3': 'eip4844',
  '0x4': 'eip7702',
}

/**
 * viem's `formatTransactionReceipt`, field for field (test/rpc.test.ts compares them). Written
 * out because viem's module imports its transaction-type table from the module of
 * `formatTransaction`, which then rides along wherever a receipt is read, into a payment that
 * never formats a transaction (the size check in docs/checkout.md, Size, measured it).
 */
export function formatReceipt(receipt: RpcTransactionReceipt): TransactionReceipt {
  const { blobGasPrice, blobGasUsed } = receipt
  return {
    ...receipt,
    blockNumber: quantity(receipt.blockNumber),
    contractAddress: receipt.contractAddress || null,
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantity(receipt.effectiveGasPrice),
    gasUsed: quantity(receipt.gasUsed),
    logs: receipt.logs ? receipt.logs.map((log) => formatLog(log)) : null,
    to: receipt.to || null,
    transactionIndex: receipt.transactionIndex ? hexToNumber(receipt.transactionIndex) : null,
    status: receipt.status ? statuses[receipt.status] : null,
    type: receipt.type ? types[receipt.type] || receipt.type : null,
    ...(blobGasPrice ? { blobGasPrice: BigInt(blobGasPrice) } : {}),
    ...(blobGasUsed ? { blobGasUsed: BigInt(blobGasUsed) } : {}),
  } as TransactionReceipt
}

/** Sender and nonce of a known transaction (pending or mined), or undefined. */
export async function getTransaction(
  client: RpcClient,
  hash: Hex,
): Promise<{ hash: Hex; from: Address; nonce: number } | undefined> {
  const transaction = await client.request({ method: 'eth_getTransactionByHash', params: [hash] })
  if (!transaction) return undefined
  return { hash: transaction.hash, from: transaction.from, nonce: hexToNumber(transaction.nonce) }
}

/** ERC-20 `Transfer` logs of `token` from `from` to `to`, from `fromBlock` to `toBlock` (or the head). */
export async function getTransferLogs(
  client: RpcClient,
  parameters: { token: Address; from: Address; to: Address; fromBlock: bigint; toBlock?: bigint },
): Promise<RpcLog[]> {
  return client.request({
    method: 'eth_getLogs',
    params: [
      {
        address: parameters.token,
        topics: [transferTopic, addressWord(parameters.from), addressWord(parameters.to)],
        fromBlock: numberToHex(parameters.fromBlock),
        ...(parameters.toBlock === undefined ? {} : { toBlock: numberToHex(parameters.toBlock) }),
      },
    ],
  })
}

/**
 * Asks the wallet to send a transaction (it fills gas, fees and nonce). Never retried: a second
 * try could be a second payment.
 */
export async function sendTransaction(
  wallet: RpcClient,
  transaction: { from: Address; to: Address; data: Hex; chainId: number },
): Promise<Hex> {
  return wallet.request(
    {
      method: 'eth_sendTransaction',
      params: [{ ...transaction, chainId: numberToHex(transaction.chainId) }],
    },
    { retryCount: 0 },
  )
}
