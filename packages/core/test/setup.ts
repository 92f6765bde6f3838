import { environmentManager } from '@tanstack/query-core'

// Node has no `window`, so query-core would treat it as a server and never schedule refetch
// timers. The checkout runs in browsers; tests run its polling the way a browser would.
environmentManager.setIsServer(() => false)
