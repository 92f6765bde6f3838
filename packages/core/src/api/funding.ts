import { type FundingResponse, parseFundingResponse, servicePaths } from '@paysession/protocol'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { apiRequest } from './request.js'

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
  const body = await apiRequest(config, {
    method: 'POST',
    paths: servicePaths('reportFunding', parameters),
    sessionToken: parameters.sessionToken,
    body: { fundingTransactionHash: parameters.hash, wait: parameters.wait ?? false },
    signal: parameters.signal,
  })
  return parseFundingResponse(body)
}
