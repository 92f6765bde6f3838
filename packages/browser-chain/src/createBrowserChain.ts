import { type Block, createBlock } from '@ethereumjs/block'
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common'
import { createTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import {
  Account,
  bytesToHex,
  createAddressFromString,
  hexToBytes,
  type PrefixedHexString,
  privateToAddress,
} from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { type Clock, systemClock } from '@paysession/protocol'

type Hex = PrefixedHexString

/**
 * One state-changing step of the chain. The journal of these steps is the chain's whole
 * persistent state: replaying it rebuilds every block, balance and log exactly.
 */
export type JournalEntry =
  | { kind: 'tx'; raw: Hex; timestamp: string }
  | { kind: 'mine'; timestamp: string }
  | { kind: 'time'; seconds: string }
  | { kind: 'balance'; address: Hex; value: string }

export type BrowserChainOptions = {
  chainId?: number
  /** Private keys of the unlocked accounts `eth_sendTransaction` signs for. */
  accounts?: Hex[]
  /** Native balance of each unlocked account at genesis, in wei. Default 10,000 ETH. */
  balance?: bigint
  /** A journal saved earlier: the chain replays it before it answers any request. */
  journal?: JournalEntry[]
  /**
   * Called with each new step before the request that made it is answered, so a caller never
   * learns of a transaction that the journal could lose. Await persistence here.
   */
  onJournal?: (entry: JournalEntry) => void | Promise<void>
  /** Where new blocks get their time; tests pass their own. Default: `systemClock`. */
  clock?: Clock
  /**
   * The genesis block's timestamp (seconds). Every block hash descends from it, so a chain that
   * replays a saved journal passes the one it saved (`chain.genesisTimestamp`) to keep its hashes.
   */
  genesisTimestamp?: number
}

export type EIP1193Request = { method: string; params?: unknown[] | object }

export type BrowserChain = {
  request(args: EIP1193Request): Promise<unknown>
  /** The steps so far, for saving. */
  journal(): JournalEntry[]
  /** The genesis block's timestamp, for saving with the journal. */
  genesisTimestamp: number
}

/** A JSON-RPC error in the shape viem reads (`code`, `message`, optional revert `data`). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Hex,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

const GAS_LIMIT = 30_000_000n
const BASE_FEE = 1_000_000_000n
const TIP = 1_000_000_000n
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const hex = (n: bigint | number): Hex => `0x${BigInt(n).toString(16)}`
const toBig = (h: unknown, fallback = 0n): bigint =>
  h === undefined || h === null ? fallback : BigInt(h as string)

type Log = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed: false
}
type Receipt = {
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockNumber: Hex
  from: Hex
  to: Hex | null
  cumulativeGasUsed: Hex
  gasUsed: Hex
  effectiveGasPrice: Hex
  contractAddress: Hex | null
  logs: Log[]
  logsBloom: Hex
  status: '0x0' | '0x1'
  type: Hex
}
type MinedBlock = {
  block: Block
  number: bigint
  hash: Hex
  timestamp: bigint
  txs: Hex[]
  gasUsed: bigint
}
type MinedTx = { tx: TypedTransaction; block: MinedBlock; receipt: Receipt }
type CallParams = { from?: Hex; to?: Hex; data?: Hex; input?: Hex; value?: Hex; gas?: Hex }
type LogFilter = {
  fromBlock?: string
  toBlock?: string
  blockHash?: Hex
  address?: Hex | Hex[]
  topics?: (Hex | Hex[] | null)[]
}

/**
 * A real EVM (ethereumjs) behind an EIP-1193 provider that viem and wagmi use unchanged: one
 * block per transaction (automine), unlocked dev accounts, logs and receipts, and a journal
 * that persists and replays the chain.
 *
 * @example
 * const chain = await createBrowserChain({ accounts: [key], onJournal: (e) => db.append(e) })
 * const client = createPublicClient({ transport: custom(chain) })
 */
export async function createBrowserChain(options: BrowserChainOptions = {}): Promise<BrowserChain> {
  const chainId = options.chainId ?? 31337
  const clock = options.clock ?? systemClock
  // Block timestamps are in seconds.
  const seconds = () => Math.floor(clock.now() / 1000)
  const common = createCustomCommon({ chainId }, Mainnet, { hardfork: Hardfork.Cancun })
  const vm = await createVM({ common })
  const keys = new Map<string, Uint8Array>()
  for (const key of options.accounts ?? []) {
    const privateKey = hexToBytes(key)
    const address = bytesToHex(privateToAddress(privateKey))
    keys.set(address, privateKey)
    await vm.stateManager.putAccount(
      createAddressFromString(address),
      new Account(0n, options.balance ?? 10n ** 22n),
    )
  }

  const journal: JournalEntry[] = []
  const blocks: MinedBlock[] = []
  const txs = new Map<Hex, MinedTx>()
  let timeOffset = 0n
  let replaying = false

  function makeBlock(
    number: bigint,
    parentHash: Uint8Array,
    timestamp: bigint,
    tx?: TypedTransaction,
  ) {
    const block = createBlock(
      {
        header: {
          number,
          parentHash,
          timestamp,
          gasLimit: GAS_LIMIT,
          baseFeePerGas: BASE_FEE,
          coinbase: ZERO_ADDRESS,
          excessBlobGas: 0n,
          blobGasUsed: 0n,
          parentBeaconBlockRoot: new Uint8Array(32),
        },
        transactions: tx ? [tx] : [],
      },
      { common },
    )
    return {
      block,
      number,
      hash: bytesToHex(block.hash()),
      timestamp,
      txs: [],
      gasUsed: 0n,
    } as MinedBlock
  }
  const genesisTimestamp = options.genesisTimestamp ?? seconds()
  blocks.push(makeBlock(0n, new Uint8Array(32), BigInt(genesisTimestamp)))

  const head = () => blocks[blocks.length - 1] as MinedBlock
  function nextTimestamp(): bigint {
    const now = BigInt(seconds()) + timeOffset
    return now > head().timestamp ? now : head().timestamp + 1n
  }

  async function record(entry: JournalEntry) {
    journal.push(entry)
    if (!replaying) await options.onJournal?.(entry)
  }

  async function mine(timestamp: bigint, tx?: TypedTransaction): Promise<MinedBlock> {
    const parent = head()
    const mined = makeBlock(parent.number + 1n, hexToBytes(parent.hash), timestamp, tx)
    if (tx) {
      let result: Awaited<ReturnType<typeof runTx>>
      try {
        result = await runTx(vm, { tx, block: mined.block })
      } catch (error) {
        // Invalid before execution (nonce, balance, gas): nothing is mined, as on a node.
        throw new RpcError(-32000, (error as Error).message.split('\n')[0] ?? 'invalid transaction')
      }
      const hash = bytesToHex(tx.hash())
      const logs = result.receipt.logs.map(([address, topics, data], i) => ({
        address: bytesToHex(address),
        topics: topics.map((t) => bytesToHex(t)),
        data: bytesToHex(data),
        blockNumber: hex(mined.number),
        blockHash: mined.hash,
        transactionHash: hash,
        transactionIndex: '0x0',
        logIndex: hex(i),
        removed: false,
      })) satisfies Log[]
      mined.txs.push(hash)
      mined.gasUsed = result.totalGasSpent
      txs.set(hash, {
        tx,
        block: mined,
        receipt: {
          transactionHash: hash,
          transactionIndex: '0x0',
          blockHash: mined.hash,
          blockNumber: hex(mined.number),
          from: tx.getSenderAddress().toString(),
          to: tx.to ? tx.to.toString() : null,
          cumulativeGasUsed: hex(result.totalGasSpent),
          gasUsed: hex(result.totalGasSpent),
          effectiveGasPrice: hex(effectiveGasPrice(tx)),
          contractAddress: result.createdAddress ? result.createdAddress.toString() : null,
          logs,
          logsBloom: bytesToHex(result.bloom.bitvector),
          status: result.execResult.exceptionError ? '0x0' : '0x1',
          type: hex(tx.type),
        },
      })
    }
    blocks.push(mined)
    return mined
  }

  async function sendSigned(tx: TypedTransaction): Promise<Hex> {
    const timestamp = nextTimestamp()
    const mined = await mine(timestamp, tx)
    await record({ kind: 'tx', raw: bytesToHex(tx.serialize()), timestamp: timestamp.toString() })
    return mined.txs[0] as Hex
  }

  async function call(params: CallParams) {
    await vm.stateManager.checkpoint()
    try {
      const data = params.data ?? params.input
      return await vm.evm.runCall({
        caller: createAddressFromString(params.from ?? ZERO_ADDRESS),
        to: params.to ? createAddressFromString(params.to) : undefined,
        data: data ? hexToBytes(data) : new Uint8Array(),
        value: toBig(params.value),
        gasLimit: toBig(params.gas, GAS_LIMIT),
        block: head().block,
        skipBalance: true,
      })
    } finally {
      await vm.stateManager.revert()
    }
  }

  async function callOrThrow(params: CallParams) {
    const result = await call(params)
    if (result.execResult.exceptionError)
      throw new RpcError(3, 'execution reverted', bytesToHex(result.execResult.returnValue))
    return result
  }

  function findBlock(tag: unknown): MinedBlock | undefined {
    if (
      tag === undefined ||
      tag === 'latest' ||
      tag === 'pending' ||
      tag === 'safe' ||
      tag === 'finalized'
    )
      return head()
    if (tag === 'earliest') return blocks[0]
    return blocks[Number(BigInt(tag as string))]
  }

  function txJson(hash: Hex) {
    const mined = txs.get(hash)
    if (!mined) return null
    const json = mined.tx.toJSON()
    return {
      ...json,
      hash,
      input: json.data,
      from: mined.tx.getSenderAddress().toString(),
      blockNumber: hex(mined.block.number),
      blockHash: mined.block.hash,
      transactionIndex: '0x0',
      type: hex(mined.tx.type),
      chainId: hex(chainId),
    }
  }

  function blockJson(mined: MinedBlock, full: boolean) {
    const header = mined.block.header
    return {
      number: hex(mined.number),
      hash: mined.hash,
      parentHash: bytesToHex(header.parentHash),
      timestamp: hex(mined.timestamp),
      gasLimit: hex(GAS_LIMIT),
      gasUsed: hex(mined.gasUsed),
      baseFeePerGas: hex(BASE_FEE),
      miner: ZERO_ADDRESS,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: '0x0',
      nonce: '0x0000000000000000',
      logsBloom: mined.txs[0]
        ? (txs.get(mined.txs[0])?.receipt.logsBloom ?? '0x')
        : `0x${'0'.repeat(512)}`,
      sha3Uncles: bytesToHex(header.uncleHash),
      stateRoot: bytesToHex(header.stateRoot),
      transactionsRoot: bytesToHex(header.transactionsTrie),
      receiptsRoot: bytesToHex(header.receiptTrie),
      mixHash: `0x${'0'.repeat(64)}`,
      transactions: full ? mined.txs.map(txJson) : mined.txs,
      uncles: [],
    }
  }

  function getLogs(filter: LogFilter): Log[] {
    let from: number
    let to: number
    if (filter.blockHash) {
      const found = blocks.find((b) => b.hash === filter.blockHash)
      if (!found) return []
      from = to = Number(found.number)
    } else {
      from = Number(findBlock(filter.fromBlock ?? 'latest')?.number ?? blocks.length)
      to = Number(findBlock(filter.toBlock ?? 'latest')?.number ?? head().number)
    }
    const addresses = filter.address
      ? ([] as Hex[]).concat(filter.address).map((a) => a.toLowerCase())
      : undefined
    const topics = filter.topics ?? []
    const out: Log[] = []
    for (let n = from; n <= to && n < blocks.length; n++)
      for (const hash of (blocks[n] as MinedBlock).txs)
        for (const log of txs.get(hash)?.receipt.logs ?? []) {
          if (addresses && !addresses.includes(log.address.toLowerCase())) continue
          const matches = topics.every(
            (want, i) =>
              want === null ||
              ([] as Hex[])
                .concat(want)
                .some((t) => t.toLowerCase() === log.topics[i]?.toLowerCase()),
          )
          if (matches) out.push(log)
        }
    return out
  }

  async function account(address: Hex) {
    return (await vm.stateManager.getAccount(createAddressFromString(address))) ?? new Account()
  }

  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC params arrive untyped; each handler names its own shape.
  const methods: Record<string, (params: any) => unknown> = {
    eth_chainId: () => hex(chainId),
    net_version: () => String(chainId),
    web3_clientVersion: () => 'paysession-browser-chain/ethereumjs',
    eth_blockNumber: () => hex(head().number),
    eth_accounts: () => [...keys.keys()],
    eth_gasPrice: () => hex(BASE_FEE + TIP),
    eth_maxPriorityFeePerGas: () => hex(TIP),
    eth_feeHistory: ([count]) => {
      const n = Math.min(Number(count), blocks.length)
      return {
        oldestBlock: hex(blocks.length - n),
        baseFeePerGas: Array(n + 1).fill(hex(BASE_FEE)),
        gasUsedRatio: Array(n).fill(0),
        reward: Array(n).fill([hex(TIP)]),
      }
    },
    eth_getBalance: async ([address]) => hex((await account(address)).balance),
    eth_getTransactionCount: async ([address]) => hex((await account(address)).nonce),
    eth_getCode: async ([address]) =>
      bytesToHex(await vm.stateManager.getCode(createAddressFromString(address))),
    eth_getBlockByNumber: ([tag, full]) => {
      const found = findBlock(tag)
      return found ? blockJson(found, Boolean(full)) : null
    },
    eth_getBlockByHash: ([hash, full]) => {
      const found = blocks.find((b) => b.hash === hash)
      return found ? blockJson(found, Boolean(full)) : null
    },
    eth_getTransactionByHash: ([hash]) => txJson(hash),
    eth_getTransactionReceipt: ([hash]) => txs.get(hash)?.receipt ?? null,
    eth_getLogs: ([filter]) => getLogs(filter),
    eth_call: async ([params]) => bytesToHex((await callOrThrow(params)).execResult.returnValue),
    eth_estimateGas: async ([params]: [CallParams]) => {
      const result = await callOrThrow(params)
      const data = params.data ?? params.input
      let intrinsic = 21_000n + (params.to ? 0n : 32_000n)
      for (const byte of data ? hexToBytes(data) : []) intrinsic += byte === 0 ? 4n : 16n
      // A margin over the measured use covers refunds and the 63/64 rule of nested calls.
      return hex(((result.execResult.executionGasUsed + intrinsic) * 13n) / 10n)
    },
    eth_sendRawTransaction: ([raw]) => sendSigned(createTxFromRLP(hexToBytes(raw), { common })),
    eth_sendTransaction: async ([params]: [CallParams & { from: Hex }]) => {
      const key = keys.get(params.from.toLowerCase())
      if (!key)
        throw new RpcError(4100, `The account ${params.from} is not unlocked on this chain.`)
      const gasLimit = params.gas
        ? BigInt(params.gas)
        : BigInt((await methods.eth_estimateGas?.([params])) as Hex)
      const tx = createTx(
        {
          type: 2,
          chainId: BigInt(chainId),
          nonce: (await account(params.from)).nonce,
          to: params.to,
          data: params.data ?? params.input,
          value: toBig(params.value),
          gasLimit,
          maxFeePerGas: BASE_FEE * 2n + TIP,
          maxPriorityFeePerGas: TIP,
        },
        { common },
      ).sign(key)
      return sendSigned(tx)
    },
    evm_mine: async () => {
      const timestamp = nextTimestamp()
      await mine(timestamp)
      await record({ kind: 'mine', timestamp: timestamp.toString() })
      return '0x0'
    },
    evm_increaseTime: async ([seconds]) => {
      timeOffset += BigInt(seconds)
      await record({ kind: 'time', seconds: BigInt(seconds).toString() })
      return hex(timeOffset)
    },
    anvil_setBalance: async ([address, value]) => {
      await setBalance(address, BigInt(value))
      await record({ kind: 'balance', address, value: BigInt(value).toString() })
      return null
    },
  }

  async function setBalance(address: Hex, value: bigint) {
    const existing = await account(address)
    existing.balance = value
    await vm.stateManager.putAccount(createAddressFromString(address), existing)
  }

  async function replay(entries: JournalEntry[]) {
    replaying = true
    try {
      for (const entry of entries) {
        if (entry.kind === 'tx')
          await mine(BigInt(entry.timestamp), createTxFromRLP(hexToBytes(entry.raw), { common }))
        else if (entry.kind === 'mine') await mine(BigInt(entry.timestamp))
        else if (entry.kind === 'time') timeOffset += BigInt(entry.seconds)
        else await setBalance(entry.address, BigInt(entry.value))
        journal.push(entry)
      }
    } finally {
      replaying = false
    }
  }
  if (options.journal) await replay(options.journal)

  // One request at a time: a node orders what it is sent, and so does this one.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    request({ method, params }) {
      const handler = methods[method]
      if (!handler)
        return Promise.reject(new RpcError(4200, `The method ${method} is not supported.`))
      const run = queue.then(() => handler(Array.isArray(params) ? params : [params]))
      queue = run.catch(() => {})
      return run
    },
    journal: () => [...journal],
    genesisTimestamp,
  }
}

function effectiveGasPrice(tx: TypedTransaction): bigint {
  if ('maxFeePerGas' in tx) {
    const tip =
      tx.maxPriorityFeePerGas < tx.maxFeePerGas - BASE_FEE
        ? tx.maxPriorityFeePerGas
        : tx.maxFeePerGas - BASE_FEE
    return BASE_FEE + tip
  }
  return (tx as { gasPrice: bigint }).gasPrice
}
