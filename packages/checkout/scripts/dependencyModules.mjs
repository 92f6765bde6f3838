// The dependency modules a bundle holds, named the same whichever build made it: a package's file
// as `package/path` (what follows the last node_modules/), a workspace package's as its path in
// the repository. The checkout's own modules (src/ in one build, dist/ in the other, and its
// virtual `\0paysession:` ones) are left out.
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const own = `${repo}packages/checkout/`

/**
 * Sorted, without duplicates, from a rolldown output's chunks: the modules that put code in it
 * (a barrel of re-exports renders nothing, and whether it is listed depends on the chunking).
 */
export function dependencyModules(output) {
  const ids = output.flatMap((chunk) =>
    chunk.type === 'chunk'
      ? Object.entries(chunk.modules)
          .filter(([, module]) => module.renderedLength > 0)
          .map(([id]) => id)
      : [],
  )
  const names = ids
    .map((id) => id.replace(/\?.*$/, ''))
    .filter((id) => !id.startsWith('\0paysession:'))
    .filter((id) => !id.startsWith(own) || id.includes('/node_modules/'))
    .map((id) => {
      const at = id.lastIndexOf('/node_modules/')
      if (at >= 0) return id.slice(at + '/node_modules/'.length)
      return id.startsWith(repo) ? id.slice(repo.length) : id
    })
  return [...new Set(names)].sort()
}
