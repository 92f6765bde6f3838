import { isTokenRefused } from '../errors/api.js'

export type SessionTokenProvider = () => Promise<string | undefined> | string | undefined

/**
 * The checkout's session token: the one place it is read (`current`) and renewed. A call the
 * service refuses for the token is made once more with a fresh one from the page's provider; one
 * renewal runs at a time, and a provider that has none (or fails) leaves the token as it is.
 */
export class SessionToken {
  #token: string
  #provider: SessionTokenProvider | undefined
  #renewing: Promise<string | undefined> | undefined

  constructor(token: string, provider?: SessionTokenProvider | undefined) {
    this.#token = token
    this.#provider = provider
  }

  get current(): string {
    return this.#token
  }

  /** The page can be asked for a fresh token. */
  get renewable(): boolean {
    return !!this.#provider
  }

  /** A fresh token in place of `refused` (the current one, if it changed since), or undefined. */
  renew(refused: string): Promise<string | undefined> {
    if (this.#token !== refused) return Promise.resolve(this.#token)
    this.#renewing ??= Promise.resolve()
      .then(this.#provider)
      .then(
        (token) => {
          if (typeof token !== 'string' || !token || token === refused) return undefined
          this.#token = token
          return token
        },
        () => undefined,
      )
      .finally(() => {
        this.#renewing = undefined
      })
    return this.#renewing
  }

  /** A service call with the current token, and once more with a fresh one if it is refused. */
  async use<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = this.#token
    try {
      return await call(token)
    } catch (error) {
      if (!isTokenRefused(error)) throw error
      const fresh = await this.renew(token)
      if (!fresh) throw error
      return call(fresh)
    }
  }
}
