// `npm test`: every stage of the suite, one after another (a stage marked `beside` runs beside the
// next ones), each timed, each in a process group of its own that is stopped when the stage ends,
// also after a failure, a hang or Ctrl-C. Ends with a table of each stage's wall and CPU time (also
// written to test-results/stages.txt) and, for a stage over a minute, its slowest tests, read from
// the runners' JSON reports in test-results/reports/.
// Only Node's own modules: the first stage installs everything else.
//
// The stages: install and build (scripts/setup.sh); lint; types everywhere; the widget's size
// budgets and the package checks, every TS/JS example of the docs type-checked; every package's
// vitest suite (real anvil + sandbox, Postgres, Redis); the merchant examples in each runtime
// (Node, Express, Hono, Deno, Bun, workerd, next build && next start); then, in Debian's Chromium,
// the registry round trip (publish to a local Verdaccio, npm install in a fresh app, typecheck,
// build, pay), the widget beside the end-to-end suites (demo, hosted demo, real wallet stacks),
// every bench once with tiny sizes beside the docs site built and crawled under a sub-path.
//
//   node scripts/test.mjs            every stage
//   node scripts/test.mjs e2e docs   the named stages (after `sh scripts/setup.sh`)
import { spawn } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const reports = join(root, 'test-results', 'reports')
const pnpm = ['node', 'scripts/pnpm.mjs']
/** A stage that prints nothing for this long is hung: its own tests' timeouts should have fired. */
const SILENCE_MS = 8 * 60_000

/**
 * Installs that wait on the network more than on the CPU, started in the background as soon as a
 * chosen stage needs them; that stage waits for them. Their output: test-results/<name>.log.
 */
const background = {
  // Debian's Chromium, and Postgres and Redis, which the relay's tests and bench start on free
  // ports (apt-get, one after the other: dpkg has one lock).
  'system packages': [
    ['sh', 'scripts/ensure-chromium.sh'],
    ['sh', 'scripts/ensure-services.sh'],
  ],
  // The wallet kits the phone bench's smoke pass times beside ours (bench/lib/competitors.mjs).
  "the other SDKs' install": [
    [
      'node',
      '--input-type=module',
      '-e',
      "const m = await import('./bench/lib/competitors.mjs'); const e = m.ensureInstalled(); if (e) { console.error(e); process.exit(1) }",
    ],
  ],
}

/**
 * Each stage: its commands, run in order; `needs`, the background installs it waits for;
 * `report`, the JSON reports its runners write.
 */
const stages = [
  { name: 'install and build', run: [['sh', 'scripts/setup.sh']] },
  { name: 'lint', run: [['node_modules/.bin/biome', 'check', '.']] },
  { name: 'typecheck', run: [[...pnpm, '-r', 'typecheck']] },
  {
    name: 'size and packages',
    run: [
      [...pnpm, '--filter', '@paysession/checkout', 'run', 'size'],
      // biome-ignore format: the filters read as one list
      [...pnpm, '--filter', '@paysession/checkout', '--filter', '@paysession/protocol', '--filter', '@paysession/core', '--filter', '@paysession/server', 'run', 'lint:package'],
      ['node', 'scripts/check-packages.mjs'],
      ['node', 'scripts/check-examples.mjs'],
    ],
  },
  {
    name: 'vitest',
    report: ['vitest'],
    needs: ['system packages'],
    run: [
      [
        'node_modules/.bin/vitest',
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(reports, 'vitest.json')}`,
      ],
    ],
  },
  {
    name: 'runtimes',
    report: ['runtimes'],
    run: [
      [
        ...pnpm,
        '--filter',
        '@paysession/runtimes-e2e',
        'test',
        '--',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(reports, 'runtimes.json')}`,
      ],
    ],
  },
  {
    name: 'registry round trip',
    needs: ['system packages'],
    report: ['registry'],
    run: [[...pnpm, '--filter', '@paysession/checkout', 'run', 'test:registry']],
  },
  // The browser suites wait more than they compute (chains, polling, a browser idling): the
  // widget's (its own sandbox and page server) runs beside the demo's, each about half a core.
  {
    name: 'widget in Chromium',
    beside: true,
    needs: ['system packages'],
    report: ['widget'],
    run: [[...pnpm, '--filter', '@paysession/checkout', 'run', 'test:browser']],
  },
  {
    name: 'e2e',
    report: ['e2e', 'e2e-hosted', 'e2e-wallets'],
    run: [[...pnpm, '--filter', '@paysession/e2e', 'test']],
  },
  // Every bench once with tiny sizes (bench/README.md): proves each still runs; beside the docs'
  // build and crawl (the phone bench mostly waits on its throttled network).
  {
    name: 'bench smoke',
    beside: true,
    needs: ["the other SDKs' install"],
    run: [[...pnpm, '--filter', '@paysession/bench', 'smoke']],
  },
  { name: 'docs', report: ['docs'], run: [[...pnpm, '--filter', '@paysession/docs', 'test']] },
]

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !stages.some((s) => s.name.startsWith(name)))
if (unknown.length) {
  console.error(
    `No stage ${unknown.join(', ')}; the stages: ${stages.map((s) => s.name).join(', ')}`,
  )
  process.exit(2)
}
const chosen = wanted.length
  ? stages.filter((s) => wanted.some((w) => s.name.startsWith(w)))
  : stages

rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

/**
 * Each command runs under this wrapper, which reports on file descriptor 3 the CPU time of the
 * command and of everything it waited for (Linux's /proc; nothing elsewhere), so that a stage's
 * CPU time is its own also while another stage runs beside it.
 */
const cpuWrapper = `
const { spawn } = require('node:child_process')
const { readFileSync, writeSync } = require('node:fs')
const [cmd, ...args] = process.argv.slice(1)
const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] })
child.on('error', (error) => { console.error(error.message); process.exit(127) })
child.on('exit', (code, signal) => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    writeSync(3, String((Number(fields[13]) + Number(fields[14])) * 10))
  } catch {}
  if (signal) process.kill(process.pid, signal)
  process.exit(code ?? 1)
})`

/** Every process a stage started carries this in its environment, also one that left its group. */
const MARK = 'PAYSESSION_TEST_STAGE'
const runId = `${process.pid}-${Date.now()}`
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    console.error(`\n${signal}: stopping ${[...running.values()].join(', ') || 'the run'}`)
    finish(`stopped by ${signal}`, 130)
  })
}

const done = []
const started = Date.now()
/** The background installs, by name: their promise (why one failed, or nothing), tag and time. */
const jobs = {}
for (const name of new Set(chosen.flatMap((stage) => stage.needs ?? []))) {
  const tag = `${runId}-${name.replace(/\W+/g, '-')}`
  const log = join(root, 'test-results', `${name.replace(/\W+/g, '-')}.log`)
  rmSync(log, { force: true })
  const job = { tag, t0: Date.now() }
  job.promise = (async () => {
    for (const command of background[name]) {
      const { failure } = await run(command, tag, log)
      if (failure) return `${name}: ${failure} (its output: ${short(log)})`
    }
  })().finally(() => {
    job.ms = Date.now() - job.t0
  })
  jobs[name] = job
}
/** Stages running now, by tag: each is stopped when the run ends early. */
const running = new Map()
const besides = []
for (const stage of chosen) {
  const tag = `${runId}-${stage.name.replace(/\W+/g, '-')}`
  if (stage.beside) {
    const log = join(root, 'test-results', `${stage.name.replace(/\W+/g, '-')}.log`)
    rmSync(log, { force: true })
    console.error(`\n▶ ${stage.name}, beside the next stages (its output when it ends)`)
    besides.push(
      runStage(stage, tag, log).then((result) => {
        console.error(`\n${stage.name}: its output\n`)
        try {
          process.stderr.write(readFileSync(log))
        } catch {}
        done.push(result)
        if (result.failure) finish(`${stage.name} failed: ${result.failure}`, 1)
      }),
    )
    continue
  }
  console.error(`\n▶ ${stage.name}`)
  const result = await runStage(stage, tag)
  done.push(result)
  if (result.failure) finish(`${stage.name} failed: ${result.failure}`, 1)
}
if (besides.length) console.error('\nWaiting for the stages running beside…')
await Promise.all(besides)
finish('', 0)

/** A stage's commands, after the background installs it needs; its output shown or in `log`. */
async function runStage(stage, tag, log) {
  const t0 = Date.now()
  running.set(tag, stage.name)
  let failure
  let cpuMs = 0
  for (const name of stage.needs ?? []) {
    failure = await jobs[name].promise
    if (failure) break
  }
  for (const command of failure ? [] : stage.run) {
    const result = await run(command, tag, log)
    cpuMs += result.cpuMs
    failure = result.failure
    if (failure) break
  }
  stopStage(tag)
  running.delete(tag)
  const ms = Date.now() - t0
  console.error(`\n◀ ${stage.name}: ${clock(ms)}, cpu ${clock(cpuMs)}${failure ? ', FAILED' : ''}`)
  return { stage, ms, cpuMs, failure }
}

/**
 * Runs one command in a new process group, its output shown (or appended to `log`); resolves
 * with why it failed (or nothing) and its CPU time.
 */
function run([cmd, ...args], tag, log) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', cpuWrapper, cmd, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, [MARK]: tag, PAYSESSION_TEST_REPORTS: reports },
    })
    let cpu = ''
    child.stdio[3].on('data', (chunk) => {
      cpu += chunk
    })
    // An install in the background may be quiet for longer: npm ci prints nothing until done.
    const silence = SILENCE_MS * (log ? 2 : 1)
    let quietTimer
    const heard = () => {
      clearTimeout(quietTimer)
      quietTimer = setTimeout(() => {
        console.error(
          `\n${cmd} ${args.join(' ')} printed nothing for ${silence / 60_000} min: hung`,
        )
        stopStage(tag)
      }, silence)
    }
    heard()
    const out = (stream) => (chunk) => {
      heard()
      if (log) appendFileSync(log, chunk)
      else stream.write(chunk)
    }
    child.stdout.on('data', out(process.stdout))
    child.stderr.on('data', out(process.stderr))
    child.on('error', (error) => resolve({ failure: error.message, cpuMs: 0 }))
    child.on('close', (code, signal) => {
      clearTimeout(quietTimer)
      resolve({
        failure:
          code === 0
            ? undefined
            : `${cmd} ${args.slice(0, 4).join(' ')} exited with ${code ?? signal}`,
        cpuMs: Number(cpu) || 0,
      })
    })
  })
}

/**
 * Kills whatever the stage started: its process group, and any process that carries the stage's
 * mark in its environment (a server or anvil started detached, in a group of its own).
 */
function stopStage(tag) {
  const pids = new Set()
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1')
      if (environ.includes(`\0${MARK}=${tag}\0`) || environ.startsWith(`${MARK}=${tag}\0`))
        pids.add(Number(entry))
    } catch {}
  }
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
}

function safeReaddir(dir) {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function finish(outcome, code) {
  for (const tag of running.keys()) stopStage(tag)
  for (const job of Object.values(jobs)) stopStage(job.tag)
  // The CPU time beside each stage's wall time: a stage far under the cores' count waits more
  // than it computes (network, timers, a browser idling), the room to run things beside it.
  const lines = ['', 'npm test: time per stage (wall, and CPU time of its processes)', '']
  const width = Math.max(
    ...[...stages.map((s) => s.name), ...Object.keys(background)].map((n) => n.length),
  )
  done.sort((a, b) => stages.indexOf(a.stage) - stages.indexOf(b.stage))
  for (const { stage, ms, cpuMs, failure } of done)
    lines.push(
      `  ${stage.name.padEnd(width)}  ${clock(ms).padStart(6)}  cpu ${clock(cpuMs).padStart(6)}${stage.beside ? '  (beside)' : ''}${failure ? '  FAILED' : ''}`,
    )
  for (const name of running.values()) lines.push(`  ${name.padEnd(width)}  stopped`)
  for (const [name, job] of Object.entries(jobs))
    lines.push(
      `  ${name.padEnd(width)}  ${job.ms === undefined ? 'stopped' : clock(job.ms).padStart(6)}  (in the background)`,
    )
  lines.push(`  ${'total'.padEnd(width)}  ${clock(Date.now() - started).padStart(6)}`)
  for (const { stage, ms } of done) {
    if (ms < 60_000 || !stage.report) continue
    const slow = slowest(stage.report)
    if (!slow.length) continue
    lines.push('', `  slowest in ${stage.name}:`)
    for (const t of slow) lines.push(`    ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.title}`)
  }
  if (outcome) lines.push('', outcome)
  const text = `${lines.join('\n')}\n`
  console.error(text)
  try {
    writeFileSync(join(root, 'test-results', 'stages.txt'), text)
  } catch {}
  process.exit(code)
}

function clock(ms) {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** The five slowest tests in the stage's JSON reports (vitest's or Playwright's). */
function slowest(names) {
  const tests = []
  for (const name of names) {
    let report
    try {
      report = JSON.parse(readFileSync(join(reports, `${name}.json`), 'utf8'))
    } catch {
      continue
    }
    // vitest: testResults[].assertionResults[]
    for (const file of report.testResults ?? [])
      for (const t of file.assertionResults ?? [])
        tests.push({ title: `${short(file.name)} › ${t.title}`, ms: t.duration ?? 0 })
    // Playwright: suites → specs → tests → results, suites nested
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          for (const r of t.results ?? [])
            tests.push({ title: `${spec.file} › ${spec.title}`, ms: r.duration ?? 0 })
      for (const child of suite.suites ?? []) walk(child)
    }
    for (const suite of report.suites ?? []) walk(suite)
  }
  return tests.sort((a, b) => b.ms - a.ms).slice(0, 5)
}

function short(path) {
  return path.replace(root, '')
}
