// The Node adapter: what needs Node's own modules (node:http's request and response, node:fs).
// Everything else is in the main entry and the relay subpath, which run on any runtime with
// fetch and Web Crypto.
export { createFileRelayStore } from './relay/createFileRelayStore.js'
export { type NodeListener, toNodeListener } from './webhooks/toNodeListener.js'
