import { readFileSync } from 'node:fs'
import type { Hex } from 'viem'

/**
 * The contracts, `artifacts/contracts.json` (read from disk in Node, bundled in a page): ours
 * compiled, Circle's as published (with their library references and deployed code).
 */
export type Artifacts = Record<
  string,
  {
    abi: unknown[]
    bytecode: Hex
    deployedBytecode?: Hex
    linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>
    deployedLinkReferences?: Record<string, Record<string, { start: number; length: number }[]>>
  }
>

/** The Node adapter's copy of the compiled contracts. */
export const readArtifacts = (): Artifacts =>
  JSON.parse(readFileSync(new URL('../../artifacts/contracts.json', import.meta.url), 'utf8'))
