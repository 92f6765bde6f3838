import { type FundingResponse, parseFundingResponse, servicePaths } from '@paysession/protocol'
import type { ApiConfig } from './config.js'
import { apiRequest } from './request.js'

export type ReportFundingResponse = FundingResponse

export async function postFundingTransaction(
  config: ApiConfig,
  parameters: {
    sessionId: string
    sessionToken: string
    hash: string
    wait?: boolean | undefined
    signal?: AbortSignal | undefined
  },
): Promise<ReportFundingResponse> {
  const body = await apiRequest(config, {
    method: 'POST',
    paths: servicePaths('reportFunding', parameters),
    sessionToken: parameters.sessionToken,
    body: { fundingTransactionHash: parameters.hash, wait: parameters.wait ?? false },
    signal: parameters.signal,
  })
  return parseFundingResponse(body)
}
