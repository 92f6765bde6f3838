import {
  parseWebhookSignature,
  systemClock,
  webhookSignatureHeader,
  webhookSignedPrefix,
} from '@paysession/protocol'
import { merchantError } from '../errors/index.js'

/** Header carrying the webhook signature (an extension of the spec; its format is protocol's). */
export const signatureHeader = webhookSignatureHeader

export type VerifySignatureParameters = {
  secret: string
  /** The `Paysession-Signature` header value. */
  header: string | null | undefined
  /** The raw request body, exactly as received. */
  body: Uint8Array | string
  /**
   * Accepted distance between the signed time and now: whole seconds from 1 to 3600. Default
   * 300. Anything else (NaN from an unset variable, Infinity, a fraction) throws `INVALID_CONFIG`.
   */
  toleranceSeconds?: number
  /** Current unix time in seconds. Default: the system clock's. */
  now?: number
}

export type VerifySignatureResult =
  | { ok: true; timestamp: number }
  | {
      ok: false
      reason: 'MISSING_SIGNATURE' | 'MALFORMED_SIGNATURE' | 'STALE_TIMESTAMP' | 'SIGNATURE_MISMATCH'
    }

/** The longest replay window accepted: longer is no window at all. */
const maxToleranceSeconds = 3600

/**
 * The replay window, or `INVALID_CONFIG`: NaN (e.g. `Number(process.env.X)` with X unset) or
 * Infinity would let any old signature through, since no distance is greater than either.
 */
export function assertToleranceSeconds(value: unknown): number {
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= maxToleranceSeconds)
    return value as number
  throw merchantError('INVALID_CONFIG', {
    shortMessage: `toleranceSeconds must be a whole number of seconds from 1 to ${maxToleranceSeconds}; leave it out for the default, 300.`,
    details: `toleranceSeconds is ${typeof value === 'number' ? String(value) : typeof value}.`,
    docsPath: 'docs/server.md#webhook-snippet',
  })
}

/** Bytes of a hex string that parseWebhookSignature checked (64 hex digits). */
function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/** Compares every byte whatever the first difference, so timing does not reveal where it is. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number)
  return difference === 0
}

const encoder = new TextEncoder()

/** HMAC-SHA256 with Web Crypto, which Node, Deno, Bun, Workers and browsers all have. */
async function hmacSha256(secret: string, parts: Uint8Array[]): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const data = new Uint8Array(parts.reduce((length, part) => length + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    data.set(part, offset)
    offset += part.byteLength
  }
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, data))
}

/**
 * Verifies `Paysession-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
 * in constant time, and that `t` is within the tolerance. Several `v1` entries are
 * accepted (secret rotation); one match is enough.
 *
 * @example
 * const result = await verifyWebhookSignature({
 *   secret,
 *   header: request.headers.get('paysession-signature'),
 *   body: new Uint8Array(await request.arrayBuffer()),
 * })
 * if (!result.ok) return reject(result.reason)
 */
export async function verifyWebhookSignature(
  parameters: VerifySignatureParameters,
): Promise<VerifySignatureResult> {
  const { secret, header, body } = parameters
  const toleranceSeconds = assertToleranceSeconds(parameters.toleranceSeconds ?? 300)
  if (!header) return { ok: false, reason: 'MISSING_SIGNATURE' }
  const parsed = parseWebhookSignature(header)
  if (!parsed) return { ok: false, reason: 'MALFORMED_SIGNATURE' }
  const now = parameters.now ?? Math.floor(systemClock.now() / 1000)
  if (Math.abs(now - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'STALE_TIMESTAMP' }
  }
  const expected = await hmacSha256(secret, [
    encoder.encode(webhookSignedPrefix(parsed.timestamp)),
    typeof body === 'string' ? encoder.encode(body) : body,
  ])
  let matched = false
  for (const signature of parsed.signatures) {
    // Every candidate is compared, so timing does not reveal which one matched.
    if (equalBytes(expected, hexBytes(signature))) matched = true
  }
  return matched
    ? { ok: true, timestamp: parsed.timestamp }
    : { ok: false, reason: 'SIGNATURE_MISMATCH' }
}
