// Runs the pinned pnpm (10.34.9) whether or not a global pnpm exists, so a fresh
// machine with only Node and npm needs nothing else.
import { execSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'

const PNPM = '10.34.9'

/**
 * The pinned pnpm that an earlier `npx -y pnpm@…` left in npm's cache, run directly: npx itself
 * takes seconds of CPU to resolve it again, and the suite runs pnpm dozens of times. Its bin
 * folder goes first on the PATH, as npx puts it, so a script's own `pnpm` finds it.
 */
function cached() {
  const npx = join(process.env.npm_config_cache || join(homedir(), '.npm'), '_npx')
  for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
    const pkg = join(npx, dir, 'node_modules', 'pnpm')
    try {
      const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'))
      if (version !== PNPM) continue
      const bin = join(npx, dir, 'node_modules', '.bin')
      process.env.PATH = `${bin}${delimiter}${process.env.PATH}`
      return [process.execPath, [join(pkg, 'bin', 'pnpm.cjs')]]
    } catch {}
  }
}

let cmd = cached() ?? ['npx', ['-y', `pnpm@${PNPM}`]]
if (cmd[0] === 'npx') {
  try {
    if (
      execSync('pnpm --version', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() === PNPM
    )
      cmd = ['pnpm', []]
  } catch {}
}
const r = spawnSync(cmd[0], [...cmd[1], ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
