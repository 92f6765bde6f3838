import { type FundingResponse, parseFundingResponse } from '@paysession/protocol'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { apiRequest } from './request.js'
import { sessionPath } from './session.js'

export type ReportFundingResponse = FundingResponse

export async function postFundingTransaction(
  config: PaySessionConfig,
  parameters: {
    sessionId: string
    sessionToken: string
    hash: string
    wait?: boolean | undefined
    signal?: AbortSignal | undefined
  },
): Promise<ReportFundingResponse> {
  const path = `${sessionPath(parameters.sessionId)}/funding-transaction`
  const body = await apiRequest(config, {
    method: 'POST',
    paths: [`/api/v1${path}`, path],
    sessionToken: parameters.sessionToken,
    body: { fundingTransactionHash: parameters.hash, wait: parameters.wait ?? false },
    signal: parameters.signal,
  })
  return parseFundingResponse(body)
}
