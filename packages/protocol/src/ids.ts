// Its own module, free of the error classes: the widget's first file checks an id with it.

/**
 * Whether an id can be one step of a service URL: a non-empty string other than `.` and `..`,
 * which `encodeURIComponent` leaves as they are and a URL resolves as steps up the path (so
 * `getSession('..')` would request another resource with the same credential).
 * @example isPlainId('ps_1') // true; isPlainId('..') // false
 */
export function isPlainId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '.' && value !== '..'
}
