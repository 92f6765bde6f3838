import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Builds the hosted demo (apps/demo/dist/hosted) from the current sources: one Vite build, about a second. */
export default function hostedSetup() {
  const demo = fileURLToPath(new URL('../apps/demo', import.meta.url))
  execFileSync(
    join('node_modules', '.bin', 'vite'),
    ['build', '--config', 'vite.hosted.config.ts'],
    {
      cwd: demo,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
}
