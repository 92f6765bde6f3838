/** A body over the handler's limit: the handler answers 413. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
}

/**
 * Reads a request's body chunk by chunk and stops at `maxBytes`: a larger body is refused as
 * soon as the limit is passed (the rest is never read), whatever `content-length` says or when
 * there is none. Every handler of this package reads its body through it, never with
 * `request.text()`, which would buffer an unbounded body first.
 * @example const bytes = await readBody(request, 16 * 1024)
 */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined)
    throw new BodyTooLargeError(`The body is over ${maxBytes} bytes.`)
  }
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new BodyTooLargeError(`The body is over ${maxBytes} bytes.`)
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}
