// Compiles contracts/*.sol with solc-js into artifacts/contracts.json (committed),
// so installing the sandbox needs no compiler. Run: pnpm --filter @paysession/sandbox contracts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import solc from 'solc'

const dir = new URL('../contracts/', import.meta.url)
const sources = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .map((f) => [f, { content: readFileSync(new URL(f, dir), 'utf8') }]),
)
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
}
const output = JSON.parse(solc.compile(JSON.stringify(input)))
const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage)
  process.exit(1)
}
const artifacts = { compiler: solc.version() }
for (const file of Object.keys(output.contracts))
  for (const [name, c] of Object.entries(output.contracts[file]))
    artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
writeFileSync(
  new URL('../artifacts/contracts.json', import.meta.url),
  `${JSON.stringify(artifacts, null, 1)}\n`,
)
console.log(`compiled ${Object.keys(artifacts).length - 1} contracts with solc ${solc.version()}`)
