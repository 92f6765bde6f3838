// The webhook signature's format, written by the service (the sandbox signs) and read by the
// merchant (the server verifies): `Paysession-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(
// secret, "<t>.<raw body>")>`. Each side computes the HMAC with its own crypto; the format is here.

/** Header carrying the webhook signature (an extension of the spec). */
export const webhookSignatureHeader = 'Paysession-Signature'

/** What the HMAC covers before the raw body (a verifier appends the body's bytes as received). */
export const webhookSignedPrefix = (timestamp: number): string => `${timestamp}.`

/** What the HMAC covers: the timestamp, a dot, and the raw body. */
export const webhookSignedPayload = (timestamp: number, body: string): string =>
  webhookSignedPrefix(timestamp) + body

/** The header's value for one signature. */
export const formatWebhookSignature = (timestamp: number, v1: string): string =>
  `t=${timestamp},v1=${v1}`

/**
 * The header's timestamp and its `v1` signatures (lower-case hex, 64 digits each; several during a
 * secret's rotation), or `undefined` when it has no valid timestamp or no valid signature.
 */
export function parseWebhookSignature(
  header: string,
): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    if (separator < 0) continue
    const key = part.slice(0, separator).trim()
    const value = part.slice(separator + 1).trim()
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(value.toLowerCase())
  }
  if (timestamp === undefined || signatures.length === 0) return undefined
  return { timestamp, signatures }
}
