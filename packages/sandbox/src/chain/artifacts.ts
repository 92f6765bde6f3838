import { readFileSync } from 'node:fs'
import type { Artifacts } from './deploy.js'

/** The Node adapter's copy of the compiled contracts. */
export const readArtifacts = (): Artifacts =>
  JSON.parse(readFileSync(new URL('../../artifacts/contracts.json', import.meta.url), 'utf8'))
