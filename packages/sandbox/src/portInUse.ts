import type { Server } from 'node:net'

/**
 * A port the sandbox (or the demo on top of it) needs is taken by another program. Stable
 * `code`, the port, what wanted it, and the sentence a developer acts on: which program, and the
 * setting that moves it.
 */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError'
  readonly code = 'PORT_IN_USE'
  constructor(
    readonly port: number,
    /** What wanted the port: "the local chain (anvil)", "the sandbox API", "the demo shop". */
    readonly what: string,
    /** The environment variable (and option) that chooses another port. */
    readonly setting: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Port ${port} is in use by another program, so ${what} cannot listen on it. Stop that program, or set ${setting} to a free port.`,
      options,
    )
  }
}

/** Whether a start failed because the address was taken: Node's EADDRINUSE or anvil's words. */
export function isAddressInUse(error: unknown): boolean {
  if ((error as { code?: unknown } | undefined)?.code === 'EADDRINUSE') return true
  return /Address already in use|EADDRINUSE/i.test(error instanceof Error ? error.message : '')
}

/**
 * Listens on `port` (0: any free one) at `host`. A port another program holds rejects with a
 * PortInUseError naming `what` wanted it and the `setting` that moves it.
 */
export function listenOn(
  server: Server,
  port: number,
  host: string,
  what: string,
  setting: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        isAddressInUse(error) ? new PortInUseError(port, what, setting, { cause: error }) : error,
      ),
    )
    server.listen(port, host, () => resolve())
  })
}
