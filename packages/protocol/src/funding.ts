import { invalid, object } from './rules.js'
import { isSessionStatus } from './status.js'
import type { FundingResponse } from './types.js'

/** What associate funding transaction answers: `success` required, extensions when well-typed. */
export function parseFundingResponse(body: unknown, what = 'funding response'): FundingResponse {
  const source = object(body, what)
  if (typeof source.success !== 'boolean') invalid(`${what}.success is not a boolean.`)
  const answer: FundingResponse = { success: source.success }
  if (isSessionStatus(source.status)) answer.status = source.status
  if (typeof source.processed === 'boolean') answer.processed = source.processed
  return answer
}
