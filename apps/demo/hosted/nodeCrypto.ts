import { hmac } from '@noble/hashes/hmac'
import { sha256 } from '@noble/hashes/sha2'

// The hosted demo runs @paysession/server in the page. The library signs and verifies webhooks
// with `node:crypto`; the hosted build maps that import here (vite.hosted.config.ts): the same
// HMAC-SHA256 from @noble/hashes, the same constant-time comparison, the Web Crypto UUID.

const encoder = new TextEncoder()
const bytes = (data: string | Uint8Array) =>
  typeof data === 'string' ? encoder.encode(data) : data

export function createHmac(algorithm: string, key: string | Uint8Array) {
  if (algorithm !== 'sha256') throw new Error(`createHmac: only sha256 in the hosted demo`)
  const mac = hmac.create(sha256, bytes(key))
  const api = {
    update(data: string | Uint8Array) {
      mac.update(bytes(data))
      return api
    },
    digest: () => mac.digest(),
  }
  return api
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length')
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}

export const randomUUID = () => crypto.randomUUID()
