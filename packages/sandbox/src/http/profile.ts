// The conformance profiles. `default` answers with every field of the spec plus the sandbox's
// extensions and accepts every name and path variant; `strict` answers as lean as the spec allows
// (sections 2.1, 2.2, 4, 5), so the SDK's suites see what a stricter service does.

export const profiles = ['default', 'strict'] as const
export type Profile = (typeof profiles)[number]

export function isProfile(value: unknown): value is Profile {
  return typeof value === 'string' && (profiles as readonly string[]).includes(value)
}

type Json = Record<string, unknown>

const pick = (source: Json, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]))

/** Section 2.1, the shorter of the two create responses. */
const createdSessionFields = ['paymentSessionId', 'paymentSessionToken'] as const

/** Section 2.1, "The get response carries: ...". */
const sessionFields = [
  'paymentSessionId',
  'status',
  'amount',
  'currency',
  'network',
  'tokenSymbol',
  'userAddress',
  'oneTimeWalletAddress',
  'fundingTransactionHash',
  'userSubmittedTransactionHash',
  'createdAt',
] as const

/** Section 2.2: the create-capture response (quickstart variant) and the get-capture response. */
const createdCaptureFields = [
  'paymentCaptureId',
  'captureAmount',
  'refundAmount',
  'status',
  'createdAt',
  'finalCapture',
] as const
const captureFields = [
  'paymentCaptureId',
  'status',
  'captureAmount',
  'refundAmount',
  'captureTransferTransactionHash',
  'refundTransferTransactionHash',
] as const

/** Only the path form the spec shows: create and get session bare, everything else under /api/v1. */
export type PathForm = 'bare' | 'v1'

export function shape(profile: Profile) {
  const strict = profile === 'strict'
  const capture = (c: Json, keys: readonly string[]) =>
    strict ? pick({ ...c, paymentCaptureId: c.captureId }, keys) : c
  return {
    strict,
    createdSession: (s: Json) => (strict ? pick(s, createdSessionFields) : s),
    session: (s: Json) => (strict ? pick(s, sessionFields) : s),
    createdCapture: (c: Json) => capture(c, createdCaptureFields),
    capture: (c: Json) => capture(c, captureFields),
    /** The final flag: strict reads it only under the quickstart's name, `finalCapture`. */
    captureBody: (body: Json) => {
      if (!strict) return body
      const { isFinalCapture: _ignored, ...rest } = body
      return rest
    },
    /** The spec leaves funding-transaction's status code open; strict picks the other plausible one. */
    fundingStatus: strict ? 202 : 200,
    /** Get session: the spec lists only the session token; the default profile also takes the API key. */
    merchantMayReadSession: !strict,
    allowsPath: (form: PathForm | undefined, prefixed: boolean) =>
      !strict || form === undefined || (form === 'v1') === prefixed,
  }
}
