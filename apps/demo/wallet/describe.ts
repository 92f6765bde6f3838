// What a prompt shows: a token transfer the way wallets show it ("Send 12.00 USDC to 0x…"),
// decoded with the protocol's token ABIs, and anything else as its raw fields.
import { eip3009Abi, stablecoinAbi } from '@paysession/protocol'
import { decodeFunctionData, formatUnits, hexToBytes, isHex } from 'viem'
import type { WalletConfig } from './config.js'

export type Row = [label: string, value: string]
type Token = WalletConfig['tokens'][number]

const tokenAbi = [...stablecoinAbi, ...eip3009Abi]

/** 12000000n with 6 decimals → "12.00": at least two decimals, no trailing zeros beyond them. */
export function units(value: bigint, decimals: number): string {
  const [whole, fraction = ''] = formatUnits(value, decimals).split('.')
  return `${whole}.${fraction.padEnd(Math.min(2, decimals), '0')}`.replace(/\.$/, '')
}

const amount = (value: bigint, token: Token | undefined) =>
  token ? `${units(value, token.decimals)} ${token.symbol}` : `${value} (token units)`

export function describeTransaction(
  tx: { to?: unknown; data?: unknown; input?: unknown; value?: unknown },
  context: { tokens: Token[]; from: string; network: string },
): Row[] {
  const to = String(tx.to ?? '')
  const data = String(tx.data ?? tx.input ?? '0x')
  const token = context.tokens.find((t) => t.address.toLowerCase() === to.toLowerCase())
  const call = decode(data)
  if (call?.functionName === 'transfer') {
    const [recipient, value] = call.args
    return [
      ['Send', amount(value, token)],
      ['To', recipient],
      ['Token contract', to],
      ['From', context.from],
      ['Network', context.network],
    ]
  }
  if (call?.functionName === 'transferWithAuthorization') {
    const [from, recipient, value] = call.args
    return [
      ['Submit a signed transfer of', amount(value, token)],
      ['From', from],
      ['To', recipient],
      ['Token contract', to],
      ['Network', context.network],
    ]
  }
  return [
    ['To', to || '(contract creation)'],
    ['Value', `${units(BigInt(String(tx.value ?? 0)), 18)} ETH`],
    ['Data', data.length > 2 ? `${data.slice(0, 10)}… (${(data.length - 2) / 2} bytes)` : 'none'],
    ['From', context.from],
  ]
}

function decode(data: string) {
  if (!isHex(data) || data.length < 10) return undefined
  try {
    return decodeFunctionData({ abi: tokenAbi, data })
  } catch {
    return undefined
  }
}

/**
 * A signature's prompt: an EIP-3009 authorization summed up as the transfer it allows, then always
 * the exact content signed (the text, or the whole typed data: domain, types, message), unabridged.
 */
export function describeSignature(
  method: string,
  params: unknown[],
  context: { tokens: Token[]; account: string },
): Row[] {
  const message = method === 'personal_sign' ? params[0] : params[1]
  return [
    ...(transferAuthorization(message, context.tokens) ?? []),
    ['Signed as', context.account],
    ['Signs exactly', exactly(method, message)],
  ]
}

function exactly(method: string, message: unknown): string {
  if (method === 'personal_sign') {
    const text = String(message)
    if (!isHex(text)) return text
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(text))
    } catch {
      return text
    }
  }
  try {
    return JSON.stringify(typeof message === 'string' ? JSON.parse(message) : message, null, 2)
  } catch {
    return String(message)
  }
}

/** An EIP-3009 authorization (a payment without network fees), shown as the transfer it allows. */
function transferAuthorization(message: unknown, tokens: Token[]): Row[] | undefined {
  try {
    const typed = typeof message === 'string' ? JSON.parse(message) : message
    if (typed?.primaryType !== 'TransferWithAuthorization') return undefined
    const contract = String(typed.domain?.verifyingContract)
    const token = tokens.find((t) => t.address.toLowerCase() === contract.toLowerCase())
    const { from, to, value, validAfter, validBefore } = typed.message
    return [
      ['Authorize a transfer of', amount(BigInt(value), token)],
      ['From', String(from)],
      ['To', String(to)],
      ['Token contract', contract],
      ['Valid from', new Date(Number(validAfter) * 1000).toLocaleString()],
      ['Valid until', new Date(Number(validBefore) * 1000).toLocaleString()],
    ]
  } catch {
    return undefined
  }
}
