import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { bytesToHex, keccak256 } from 'viem'
import { expect, test } from 'vitest'
import { EventEmitter } from '../cdn/eventEmitter.js'
import { keccak_256 } from '../cdn/keccak256.js'

// The script-tag build's stand-ins (cdn/, vite.config.ts) against what they stand in for.

test('keccak_256 hashes as noble does (viem keccak256), across block boundaries', () => {
  expect(bytesToHex(keccak_256(new Uint8Array()))).toBe(
    '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
  )
  // 135, 136 and 137 bytes straddle the 136-byte rate; 272 fills two blocks exactly.
  for (const length of [1, 20, 32, 55, 64, 135, 136, 137, 200, 271, 272, 273, 500, 1000]) {
    const input = new Uint8Array(randomBytes(length))
    expect(bytesToHex(keccak_256(input)), `${length} bytes`).toBe(keccak256(input))
  }
  // What the payment hashes: an address for its EIP-55 checksum.
  const address = new TextEncoder().encode('d8da6bf26964af9d7eed9e03e53415d37aa96045')
  expect(bytesToHex(keccak_256(address))).toBe(keccak256(address))
})

test('the event emitter behaves as eventemitter3 under the same calls', () => {
  // eventemitter3 as @wagmi/core resolves it.
  const wagmi = createRequire(import.meta.url).resolve('@wagmi/core')
  const { EventEmitter: Original } = createRequire(wagmi)('eventemitter3') as {
    EventEmitter: new () => EventEmitter
  }
  const script = (emitter: EventEmitter) => {
    const log: string[] = []
    const a = (x: unknown) => log.push(`a${x}`)
    const b = (x: unknown) => log.push(`b${x}`)
    const late = (x: unknown) => log.push(`late${x}`)
    const adding = (x: unknown) => {
      log.push(`adding${x}`)
      emitter.on('change', late)
    }
    const removing = (x: unknown) => {
      log.push(`removing${x}`)
      emitter.off('change', b)
    }
    log.push(String(emitter.emit('change', 0)))
    emitter.on('change', a)
    emitter.once('change', b)
    emitter.on('change', a)
    log.push(`count${emitter.listenerCount('change')}`)
    log.push(String(emitter.emit('change', 1)))
    log.push(`count${emitter.listenerCount('change')}`)
    emitter.emit('change', 2)
    emitter.off('change', a)
    log.push(`count${emitter.listenerCount('change')}`)
    emitter.on('change', removing)
    emitter.on('change', b)
    emitter.on('change', adding)
    emitter.emit('change', 3)
    emitter.emit('change', 4)
    emitter.once('connect', a)
    emitter.on('connect', b)
    emitter.off('connect', a, undefined, true)
    emitter.emit('connect', 5)
    emitter.off('change')
    log.push(`count${emitter.listenerCount('change')}`, String(emitter.emit('change', 6)))
    return log
  }
  const expected = script(new Original())
  expect(expected).toContain('late4')
  expect(script(new EventEmitter())).toEqual(expected)
})
