import { postFundingTransaction, type ReportFundingResponse } from '../api/funding.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { ApiErrorCode } from '../errors/api.js'
import { isRetryableApiError } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import { retryDelay } from '../utils/poll.js'

export type ReportFundingParameters = {
  sessionId: string
  sessionToken: string
  hash: string
  /** Ask the service to answer once the transaction is processed. */
  wait?: boolean
}
export type ReportFundingReturnType = ReportFundingResponse
export type ReportFundingErrorType = PaySessionError<ApiErrorCode | 'INVALID_TRANSACTION_HASH'>

/**
 * Tells the service the funding transaction hash. Idempotent, so an unreachable service is
 * retried with backoff (`reportRetries` times); concurrent reports of one hash share one request.
 * @example await reportFunding(config, { sessionId, sessionToken, hash })
 */
export async function reportFunding(
  config: PaySessionConfig,
  parameters: ReportFundingParameters,
): Promise<ReportFundingReturnType> {
  if (!isTransactionHash(parameters.hash))
    throw new PaySessionError('INVALID_TRANSACTION_HASH', { details: parameters.hash })
  return config.queryClient.fetchQuery({
    queryKey: ['paysession', 'report', parameters.sessionId, parameters.hash, !!parameters.wait],
    queryFn: () => postFundingTransaction(config, parameters),
    staleTime: 0,
    gcTime: 0,
    retry: (failures, error) => isRetryableApiError(error) && failures < config.reportRetries,
    retryDelay: (failures) => retryDelay(config.polling, failures),
  })
}
