// The parsing rules of the service's answers, one for every package: validate what the spec
// promises (a listed field with the wrong type is INVALID_RESPONSE); use a field it does not
// list when it has the expected type and drop it otherwise (never refuse a whole answer for an
// extension); read both names where the spec shows two.
import { decimalPattern } from './amount.js'
import { PaySessionError } from './errors.js'

export type Json = Record<string, unknown>

export function invalid(details: string): never {
  throw new PaySessionError('INVALID_RESPONSE', { details })
}

export function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(`${what} is not a JSON object.`)
  return value as Json
}

export const isString = (v: unknown): v is string => typeof v === 'string'
export const isNullableString = (v: unknown) => v === null || typeof v === 'string'

export function required(source: Json, key: string, what: string): string {
  const value = source[key]
  if (typeof value !== 'string' || value === '') invalid(`${what}.${key} is missing.`)
  return value
}

/** A field the spec lists: absent is fine, present with another type is not. */
export function listed(source: Json, key: string, check: (v: unknown) => boolean, what: string) {
  if (source[key] !== undefined && !check(source[key]))
    invalid(`${what}.${key} has the wrong type.`)
}

const isDate = (v: unknown) => isString(v) && !Number.isNaN(Date.parse(v))

/**
 * The fields the spec does not list, with the type each must have to be used: an amount is a
 * decimal string and a time a date, because the widget shows them to the customer.
 */
export const extensionFields: Record<string, (value: unknown) => boolean> = {
  acceptedTokens: (v) => Array.isArray(v) && v.every(isString),
  receivedAmount: (v) => isString(v) && decimalPattern.test(v),
  expiresAt: isDate,
  chainId: (v) => Number.isSafeInteger(v) && (v as number) > 0,
  paymentSessionTokenExpiresAt: isDate,
}

/**
 * The tolerance rule: a copy of `source` without the extension fields whose type is not the
 * expected one.
 * @example withUsableExtensions({ chainId: '1' }) // {}
 */
export function withUsableExtensions(source: Json): Json {
  const out: Json = { ...source }
  for (const [key, usable] of Object.entries(extensionFields))
    if (out[key] !== undefined && !usable(out[key])) delete out[key]
  return out
}
