// `npm test`: every stage of the suite, each timed, each in a process group of its own that is
// stopped when the stage ends, also after a failure, a hang or Ctrl-C. A stage starts when the
// stages it is `after` have passed (by default the one before it in the list), so the browser
// suites, which mostly wait (a browser idling, chains, polling), run two at a time. One stage's
// output at a time is shown as it comes; a stage that starts while another's is shown keeps its
// output in test-results/<stage>.log and shows it whole when it ends. Ends with a table of each
// stage's wall and CPU time, when it started and how busy the machine was meanwhile, and the whole
// run's CPU time (also written to test-results/stages.txt) and, for a stage over a minute, its
// slowest tests, read from the runners' JSON reports in test-results/reports/. A stage's CPU time
// is every process it started, also those that outlived their parent (see `escaped`).
// Only Node's own modules: the first stage installs everything else.
//
// The stages: install and build (scripts/setup.sh); lint; types everywhere; the widget's size
// budgets and the package checks, every TS/JS example of the docs type-checked; every package's
// vitest suite (real anvil + sandbox, Postgres, Redis); the merchant examples in each runtime
// (Node, Express, Hono, Deno, Bun, workerd, next build && next start); then, in Debian's Chromium,
// the registry round trip (publish to a local Verdaccio, npm install in a fresh app, typecheck,
// build, pay), the widget's suite, the end-to-end suites (the demo; the hosted demo; the real
// wallet stacks), every bench once with tiny sizes, and the docs site built and crawled under a
// sub-path.
//
//   node scripts/test.mjs            every stage
//   node scripts/test.mjs --quick    the inner loop: install and build, lint, types, vitest, the
//                                    widget in Chromium (npm test -- --quick)
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
 * Installs that wait on the network more than on the CPU, run in the background from the start
 * of the run, or once the stages they are `after` have passed; a stage that `needs` one waits for
 * it. Their output: test-results/<name>.log.
 */
const background = {
  // Debian's Chromium, and Postgres and Redis, which the relay's tests and bench start on free
  // ports (apt-get, one after the other: dpkg has one lock).
  'system packages': {
    run: [
      ['sh', 'scripts/ensure-chromium.sh'],
      ['sh', 'scripts/ensure-services.sh'],
    ],
  },
  // The wallet kits' apps that the phone bench's smoke pass times beside ours, installed and built
  // (bench/lib/competitors.mjs): beside the registry round trip, which mostly waits on its own
  // installs and leaves a core idle; the stages before it do not.
  "the other SDKs' install": {
    after: ['runtimes'],
    run: [
      [
        'node',
        '--input-type=module',
        '-e',
        "const m = await import('./bench/lib/competitors.mjs'); const r = await m.cachedBuilds(m.APPS.map(m.outName)); if (r.error) { console.error(r.error); process.exit(1) }",
      ],
    ],
  },
}

/**
 * Each stage: its commands, run in order; `after`, the stages that must pass before it starts (by
 * default the one before it here); `needs`, the background installs it waits for; `report`, the
 * JSON reports its runners write.
 *
 * The order, measured on 2 cores: the stages that compute (types beside sizes, vitest, the
 * runtimes, the registry round trip) run one after another, because beside anything they slow
 * down by more than they leave room (vitest took twice as long beside the widget's suite). The
 * browser suites mostly wait (chains, polling, a browser idling), so they run two at a time: the
 * widget's beside the demo's (the docs site's build beside both), then the hosted demo's and the
 * wallet stacks' beside the rest of the demo's, then the docs site's tests beside the bench
 * smoke. Each has its own servers, ports and output folder.
 */
const stages = [
  { name: 'install and build', after: [], run: [['sh', 'scripts/setup.sh']] },
  { name: 'lint', run: [['node_modules/.bin/biome', 'check', '.']] },
  { name: 'typecheck', after: ['install and build'], run: [[...pnpm, '-r', 'typecheck']] },
  {
    name: 'size and packages',
    after: ['install and build'],
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
    after: ['lint', 'typecheck', 'size and packages'],
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
    after: ['vitest'],
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
  {
    name: 'widget in Chromium',
    after: ['registry round trip'],
    needs: ['system packages'],
    report: ['widget'],
    run: [[...pnpm, '--filter', '@paysession/checkout', 'run', 'test:browser']],
  },
  {
    name: 'e2e',
    after: ['registry round trip'],
    needs: ['system packages'],
    report: ['e2e'],
    run: [[...pnpm, '--filter', '@paysession/e2e', 'exec', 'playwright', 'test']],
  },
  // The site's build computes while the two browser suites beside it mostly wait. It builds the
  // hosted demo for its playground when missing; e2e hosted rebuilds it, so it comes after.
  {
    name: 'docs build',
    after: ['registry round trip'],
    run: [[...pnpm, '--filter', '@paysession/docs', 'run', 'build']],
  },
  {
    name: 'e2e hosted',
    after: ['widget in Chromium', 'docs build'],
    report: ['e2e-hosted'],
    run: [[...pnpm, '--filter', '@paysession/e2e', 'run', 'test:hosted']],
  },
  {
    name: 'e2e wallets',
    report: ['e2e-wallets'],
    run: [[...pnpm, '--filter', '@paysession/e2e', 'run', 'test:wallets']],
  },
  {
    name: 'docs',
    after: ['e2e', 'docs build'],
    report: ['docs'],
    run: [[...pnpm, '--filter', '@paysession/docs', 'exec', 'playwright', 'test']],
  },
  // Every bench once with tiny sizes (bench/README.md): proves each still runs.
  {
    name: 'bench smoke',
    after: ['e2e'],
    needs: ["the other SDKs' install"],
    run: [[...pnpm, '--filter', '@paysession/bench', 'smoke']],
  },
]
for (const [i, stage] of stages.entries()) stage.after ??= i ? [stages[i - 1].name] : []

/**
 * `--quick`: what a change to the packages most often breaks. The widget's suite, which mostly
 * waits, runs beside vitest once the types passed, instead of after the stages left out.
 */
const quick = ['install and build', 'lint', 'typecheck', 'vitest', 'widget in Chromium']
const quickRun = process.argv.includes('--quick')
if (quickRun) stages.find((stage) => stage.name === 'widget in Chromium').after = ['typecheck']
const wanted = process.argv.slice(2).flatMap((arg) => (arg === '--quick' ? quick : [arg]))
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
 * CPU time is its own also while another stage runs beside it. What it did not wait for (a
 * server or browser started detached, or orphaned when its parent exited) is counted by `watch`.
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
    writeSync(3, String((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10))
  } catch {}
  if (signal) process.kill(process.pid, signal)
  process.exit(code ?? 1)
})`

/** The CPU time the wrappers reported, of every command so far. */
let waitedMs = 0
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
const machineAtStart = machineCpu()
const slug = (name) => name.replace(/\W+/g, '-')
const chosenNames = new Set(chosen.map((stage) => stage.name))
for (const { name, after } of [...stages, ...Object.values(background)])
  for (const other of after ?? [])
    if (!stages.some((s) => s.name === other)) throw new Error(`${name}: no stage ${other}`)
/** What has passed, by name: a stage's or an install's `after` waits for it (or its not being chosen). */
const passed = new Set()
/** A stage that is not chosen stands for the stages it is `after`: the order holds without it. */
const ready = (after = []) =>
  after.every((name) =>
    chosenNames.has(name)
      ? passed.has(name)
      : ready(stages.find((stage) => stage.name === name).after),
  )
/** The background installs the chosen stages need, by name: a promise of why one failed, or nothing. */
const jobs = {}
for (const name of new Set(chosen.flatMap((stage) => stage.needs ?? []))) {
  const job = { tag: `${runId}-${slug(name)}`, cpuMs: 0 }
  job.promise = new Promise((resolve) => {
    job.start = resolve
  }).then(async () => {
    job.t0 = Date.now()
    const log = join(root, 'test-results', `${slug(name)}.log`)
    rmSync(log, { force: true })
    try {
      for (const command of background[name].run) {
        const { failure, cpuMs } = await run(command, job.tag, log)
        job.cpuMs += cpuMs
        if (failure) return `${name}: ${failure} (its output: ${short(log)})`
      }
    } finally {
      job.ms = Date.now() - job.t0
    }
  })
  jobs[name] = job
}
/** Stages running now, by tag: each is stopped when the run ends early. */
const running = new Map()
/** The tag of the stage whose output is shown as it comes. */
let shown
const waiting = new Set(chosen)
schedule()

/** Starts every install and stage whose `after` has passed. */
function schedule() {
  for (const [name, job] of Object.entries(jobs))
    if (job.t0 === undefined && ready(background[name].after)) job.start()
  for (const stage of waiting) {
    if (!ready(stage.after)) continue
    waiting.delete(stage)
    const tag = `${runId}-${slug(stage.name)}`
    const log = shown ? join(root, 'test-results', `${slug(stage.name)}.log`) : undefined
    if (log) rmSync(log, { force: true })
    else shown = tag
    console.error(`\n▶ ${stage.name}${log ? ' (beside; its output when it ends)' : ''}`)
    runStage(stage, tag, log).then((result) => {
      if (shown === tag) shown = undefined
      if (log) {
        console.error(`\n${stage.name}: its output\n`)
        try {
          process.stderr.write(readFileSync(log))
        } catch {}
      }
      done.push(result)
      if (result.failure) finish(`${stage.name} failed: ${result.failure}`, 1)
      passed.add(stage.name)
      if (done.length === chosen.length) finish('', 0)
      schedule()
    })
  }
}

/** A stage's commands, after the background installs it needs; its output shown or in `log`. */
async function runStage(stage, tag, log) {
  const t0 = Date.now()
  const from = t0 - started
  const machine0 = machineCpu()
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
  cpuMs += escapedCpu(tag)
  running.delete(tag)
  const ms = Date.now() - t0
  console.error(`\n◀ ${stage.name}: ${clock(ms)}, cpu ${clock(cpuMs)}${failure ? ', FAILED' : ''}`)
  return { stage, ms, cpuMs, from, busy: busy(machine0), failure }
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
      waitedMs += Number(cpu) || 0
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
 * The CPU time of the processes that left a stage's tree, by their key (pid and start time): init
 * reaps them, so their time never reaches the wrapper's count. A process that carries a stage's
 * mark in its environment while its parent does not (or not the same) is one; its last reading
 * counts, with the children it reaped. Read every second and once more just before a stage's
 * processes are killed.
 */
const escaped = new Map()
/** Each process's mark ('' for none) by its key, read once from its environment. */
let marks = new Map()
const TICK_MS = 10

/** Every process on the machine now: its key, mark, parent and CPU time (its own and its reaped children's). */
function processes() {
  const now = new Map()
  const seen = new Map()
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1')
    } catch {
      continue
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const key = `${entry}:${fields[19]}`
    let mark = marks.get(key)
    if (mark === undefined) {
      mark = ''
      try {
        const environ = readFileSync(`/proc/${entry}/environ`, 'latin1')
        const at = environ.indexOf(`${MARK}=`)
        if (at === 0 || (at > 0 && environ[at - 1] === '\0'))
          mark = environ.slice(at + MARK.length + 1, environ.indexOf('\0', at))
      } catch {}
    }
    seen.set(key, mark)
    const cpuMs = fields.slice(11, 15).reduce((sum, n) => sum + Number(n), 0) * TICK_MS
    now.set(Number(entry), { key, mark, ppid: Number(fields[1]), cpuMs })
  }
  marks = seen
  return now
}

/** Notes the processes that left their stage's tree; with `tag`, every live process of that stage. */
function watch(tag) {
  const now = processes()
  for (const [pid, p] of now) {
    if (!p.mark || pid === process.pid) continue
    const left = p.ppid !== process.pid && now.get(p.ppid)?.mark !== p.mark
    if (left || p.mark === tag) escaped.set(p.key, { tag: p.mark, cpuMs: p.cpuMs })
  }
  return now
}
const watcher = setInterval(() => watch(), 1000)

/** The CPU time of a stage's processes that its wrappers did not wait for. */
function escapedCpu(tag) {
  let ms = 0
  for (const p of escaped.values()) if (p.tag === tag) ms += p.cpuMs
  return ms
}

/**
 * Kills whatever the stage started: its process group, and any process that carries the stage's
 * mark in its environment (a server or anvil started detached, in a group of its own), after
 * reading their CPU time.
 */
function stopStage(tag) {
  const pids = new Set()
  for (const [pid, p] of watch(tag)) if (p.mark === tag && pid !== process.pid) pids.add(pid)
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
  clearInterval(watcher)
  const own = process.cpuUsage()
  let runCpu = waitedMs + (own.user + own.system) / 1000
  for (const p of escaped.values()) runCpu += p.cpuMs
  // The CPU time beside each stage's wall time: a stage far under the cores' count waits more
  // than it computes (network, timers, a browser idling), the room to run things beside it.
  const lines = [
    '',
    'npm test: time per stage (wall; CPU time of every process it started, also the servers and',
    "browsers that outlived their parent; when it started; how busy the machine's cores were meanwhile)",
    '',
  ]
  const width = Math.max(
    ...[...stages.map((s) => s.name), ...Object.keys(background)].map((n) => n.length),
  )
  done.sort((a, b) => stages.indexOf(a.stage) - stages.indexOf(b.stage))
  for (const { stage, ms, cpuMs, from, busy, failure } of done)
    lines.push(
      `  ${stage.name.padEnd(width)}  ${clock(ms).padStart(6)}  cpu ${clock(cpuMs).padStart(6)}  from ${clock(from).padStart(5)}  machine ${busy}${failure ? '  FAILED' : ''}`,
    )
  for (const name of running.values()) lines.push(`  ${name.padEnd(width)}  stopped`)
  for (const [name, job] of Object.entries(jobs))
    lines.push(
      `  ${name.padEnd(width)}  ${job.ms === undefined ? 'stopped' : clock(job.ms).padStart(6)}  cpu ${clock(job.cpuMs + escapedCpu(job.tag)).padStart(6)}  (in the background${job.t0 === undefined ? '' : `, from ${clock(job.t0 - started)}`})`,
    )
  // The whole run's CPU: every stage's and install's, those stopped early, and this script's own.
  lines.push(
    `  ${'total'.padEnd(width)}  ${clock(Date.now() - started).padStart(6)}  cpu ${clock(runCpu).padStart(6)}  (the machine's cores busy ${busy(machineAtStart)} of it)`,
  )
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

/** The machine's CPU time, busy and in all, from Linux's /proc/stat (zeros elsewhere). */
function machineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1)
    const ticks = fields.map(Number)
    const total = ticks.reduce((sum, n) => sum + n, 0)
    return { busy: total - ticks[3] - ticks[4], total }
  } catch {
    return { busy: 0, total: 0 }
  }
}

/** How busy the machine's cores were since `from` (a machineCpu()), as a percentage. */
function busy(from) {
  const now = machineCpu()
  const total = now.total - from.total
  return total ? `${Math.round((100 * (now.busy - from.busy)) / total)}%`.padStart(4) : '   ?'
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
