// The reference build: the checkout's script-tag build (packages/checkout/dist/cdn/<version>) of
// another commit, so a bench compares it with this tree's build in the same run, on the same
// machine. Built once per commit into bench/.reference/<commit>/ (ignored by git): a worktree of
// the commit in a temporary folder, installed from the shared pnpm store and built as that
// commit builds itself, then removed. BENCH_REFERENCE names the commit (any git revision); the
// default is the main before the checkout bundled every dependency as it ships (docs/checkout.md,
// Size), so the figures show what that cost. BENCH_REFERENCE=none turns it off.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const defaultReference = 'ffacaed'

/** This tree's script-tag build: packages/checkout/dist/cdn/<version>. */
export function thisTreeBuild() {
  const checkout = join(repo, 'packages', 'checkout')
  const { version } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'))
  return join(checkout, 'dist', 'cdn', version)
}

/**
 * `{ ref, commit, dir }` with `dir` the reference's dist/cdn/<version>/ folder, or `{ error }`.
 * `build: false` only returns a build made earlier (the quick pass of npm test builds nothing).
 */
export function referenceBuild({ build = true } = {}) {
  const ref = process.env.BENCH_REFERENCE ?? defaultReference
  if (ref === 'none') return { error: 'BENCH_REFERENCE=none' }
  let commit
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
  } catch {
    return { error: `${ref} is not a commit of this clone (a shallow clone? fetch it first)` }
  }
  const dir = join(repo, 'bench', '.reference', commit)
  const found = () => {
    if (!existsSync(dir)) return undefined
    const [version] = readdirSync(dir)
    return version ? { ref, commit, dir: join(dir, version) } : undefined
  }
  if (found()) return found()
  if (!build) return { error: `no reference build of ${ref} yet (a full npm run bench makes one)` }
  const tree = mkdtempSync(join(tmpdir(), 'paysession-reference-'))
  console.error(`bench: building the reference ${ref} (${commit.slice(0, 7)}) once, in ${tree}…`)
  try {
    git(['worktree', 'add', '--detach', '--force', tree, commit])
    const run = (args) =>
      execFileSync(process.execPath, ['scripts/pnpm.mjs', ...args], { cwd: tree, stdio: 'inherit' })
    run(['install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'])
    run(['--filter', '@paysession/checkout...', 'run', 'build'])
    cpSync(join(tree, 'packages', 'checkout', 'dist', 'cdn'), dir, { recursive: true })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { error: `the reference ${ref} did not build: ${error.message}` }
  } finally {
    try {
      git(['worktree', 'remove', '--force', tree])
    } catch {
      rmSync(tree, { recursive: true, force: true })
    }
  }
  return found() ?? { error: `the reference ${ref} built no dist/cdn` }
}

function git(args) {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim()
}
