// Runs the pinned pnpm (10.34.9) whether or not a global pnpm exists, so a fresh
// machine with only Node and npm needs nothing else.
import { execSync, spawnSync } from 'node:child_process'

const PNPM = '10.34.9'
let cmd = ['npx', ['-y', `pnpm@${PNPM}`]]
try {
  if (
    execSync('pnpm --version', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim() === PNPM
  )
    cmd = ['pnpm', []]
} catch {}
const r = spawnSync(cmd[0], [...cmd[1], ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
