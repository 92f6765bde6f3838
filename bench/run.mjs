// Runs the benches one after another (all, or those named: `node run.mjs phone size`) and checks
// that each printed every table it owes: a bench that stops early, or prints a title with no
// table under it, fails the run instead of going unnoticed. Every bench runs even when one
// before it failed; the run fails at the end, naming what is missing. BENCH_SMOKE=1 (the quick
// pass of npm test) runs each with tiny sizes.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cpuFigureLine } from './lib/cpuFigure.mjs'

const tsx = ['--import', 'tsx']
/** Each bench, and a fixed part of each table title it prints. */
const benches = {
  load: { args: [...tsx, 'load.ts'], tables: ['GET /payment-sessions/{id} against the sandbox'] },
  widgets: { args: [...tsx, 'widgets.ts'], tables: ['Concurrent checkouts'] },
  latency: {
    args: [...tsx, 'latency.ts'],
    tables: ['Receipt → widget shows paid', 'HTTP requests of one checkout'],
  },
  phone: {
    args: [...tsx, 'phone.ts'],
    tables: [
      'Phone profile, navigation',
      'Phone profile, its click',
      'Phone profile, the click that pays',
    ],
  },
  relay: {
    args: [...tsx, 'relay.ts'],
    tables: ['sessions paid gaslessly', 'relay processes behind a round-robin proxy'],
  },
  size: { args: ['size/run.mjs'], tables: ['Bundle size'] },
  hosted: {
    args: [...tsx, 'hosted.ts'],
    tables: [
      'Hosted demo, gzip',
      'Hosted demo in Chromium, from navigation start (local',
      'Hosted demo in Chromium, from navigation start (slow mobile',
    ],
  },
}

const names = process.argv.slice(2)
const unknown = names.filter((name) => !(name in benches))
if (unknown.length) {
  console.error(
    `Unknown bench ${unknown.join(', ')}; there are: ${Object.keys(benches).join(', ')}`,
  )
  process.exit(2)
}

const failures = []
// The machine's figure before and after, so a run's times can be read against another machine's.
console.log(`${cpuFigureLine()} (before the benches)`)
for (const name of names.length ? names : Object.keys(benches)) {
  const { args, tables } = benches[name]
  const started = Date.now()
  const { code, output } = await run(args)
  const missing = tables.filter((title) => !printedTable(output, title))
  const seconds = Math.round((Date.now() - started) / 1000)
  console.error(`bench ${name}: ${seconds} s${code ? `, exit code ${code}` : ''}`)
  if (code) failures.push(`${name} exited with ${code}`)
  for (const title of missing) failures.push(`${name} printed no table "${title}…"`)
}
console.log(`${cpuFigureLine()} (after the benches)`)
if (failures.length) {
  console.error(`\nBench failed:\n${failures.map((f) => `- ${f}`).join('\n')}`)
  process.exit(1)
}

/** Runs `node args` in this folder, its output shown as it comes and kept. */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      process.stdout.write(chunk)
    })
    child.once('error', reject)
    child.once('close', (code, signal) => resolve({ code: code ?? signal, output }))
  })
}

/**
 * A line holding `title`, then (blank lines aside) a table with a header and at least one
 * row: console.table's box (│ header, │ row) or a markdown table (| header, |---, | row).
 */
function printedTable(output, title) {
  const lines = output.split('\n')
  return lines.some((line, i) => {
    if (!line.includes(title)) return false
    let start = i + 1
    while (lines[start]?.trim() === '') start++
    const end = lines.findIndex((l, j) => j > start && !/^[│|├└]/.test(l))
    const table = lines.slice(start, end < 0 ? undefined : end)
    if (table[0]?.startsWith('┌')) return table.filter((l) => l.startsWith('│')).length >= 2
    return table.filter((l) => l.startsWith('|')).length >= 3
  })
}
