import { hmac } from '@noble/hashes/hmac'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'

// Web Crypto for randomness and @noble/hashes for synchronous digests: the same in Node and in
// a browser tab, so the service needs no node:crypto.

/** `<prefix><2 * bytes hex digits>` from a cryptographically secure source. */
export function randomId(prefix: string, bytes: number) {
  return `${prefix}${bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(bytes)))}`
}

export const sha256Hex = (text: string) => bytesToHex(sha256(utf8ToBytes(text)))

export const hmacSha256Hex = (key: string, text: string) =>
  bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(text)))
