import { merchantError } from './merchantError.js'

/**
 * The service's base URL without a trailing slash and without `/api/v1`, so both forms of
 * configuration reach the same service (the spec shows both path forms, section 9). A relative
 * base (`/pay-api`, same origin) is kept as is.
 * @example normalizeApiBase('https://api.example.com/api/v1/') // 'https://api.example.com'
 */
export function normalizeApiBase(apiBase: string): string {
  return apiBase.replace(/\/+$/, '').replace(/\/api\/v1$/, '')
}

/**
 * Like {@link normalizeApiBase}, for a server: the base must be an absolute http(s) URL, or
 * `INVALID_CONFIG`.
 * @example absoluteApiBase(process.env.PAYSESSION_API_URL)
 */
export function absoluteApiBase(apiBase: unknown): string {
  let url: URL
  try {
    url = new URL(String(apiBase))
  } catch (cause) {
    throw merchantError('INVALID_CONFIG', {
      details: `apiBase ${JSON.stringify(apiBase)} is not a URL.`,
      cause,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw merchantError('INVALID_CONFIG', { details: 'apiBase must be http or https.' })
  // Credentials in the URL would travel in every request's log line; the API key is the credential.
  if (url.username !== '' || url.password !== '')
    throw merchantError('INVALID_CONFIG', { details: 'apiBase must not carry a user or password.' })
  url.search = ''
  url.hash = ''
  return normalizeApiBase(url.href)
}
