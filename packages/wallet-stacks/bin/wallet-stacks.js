#!/usr/bin/env node
// One command: the sandbox (service + anvil) with the real wallet stacks on its chain.
// Runs the TypeScript sources through tsx (a private test package: nothing to build).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const child = spawn(process.execPath, ['--import', 'tsx', cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: fileURLToPath(new URL('..', import.meta.url)),
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
