/** The sandbox's clock: real time plus an offset that tests move forward. */
export interface Clock {
  now(): number
  advance(seconds: number): void
}

export function createClock(): Clock {
  let offsetMs = 0
  return {
    now: () => Date.now() + offsetMs,
    advance: (seconds) => {
      offsetMs += seconds * 1000
    },
  }
}
