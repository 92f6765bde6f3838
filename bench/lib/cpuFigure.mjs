// The machine's figure: a fixed piece of plain JavaScript timed in the same run as the benches,
// so readers can put absolute times from different machines side by side (a machine twice as
// slow shows about twice the figure). The best of five, so a moment of load elsewhere counts
// less.

/** The work: build, serialize and parse a small tree of objects, and hash its text. */
function work() {
  let hash = 0
  for (let round = 0; round < 40; round++) {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: `s${i}`, amount: `${i}.00`, n: i }))
    const text = JSON.stringify(rows)
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0
    hash ^= JSON.parse(text).length
  }
  return hash
}

/** Milliseconds the fixed work takes on this machine now (the best of five). */
export function cpuFigure() {
  work()
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    work()
    best = Math.min(best, performance.now() - started)
  }
  return Math.round(best)
}

/** The line each run prints. */
export const cpuFigureLine = () =>
  `CPU figure: ${cpuFigure()} ms for the fixed workload (bench/lib/cpuFigure.mjs); a machine twice as slow shows about twice`
