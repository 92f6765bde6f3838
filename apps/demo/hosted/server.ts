// @paysession/server in the page. Its package entry refuses to load in a browser, on purpose: a
// merchant's API key must never reach a customer. The hosted demo is the exception that proves
// the rule: its "server" is a simulation inside the visitor's own tab, with a sandbox key that
// opens nothing but that tab's own service. So the hosted build maps `@paysession/server` here
// (vite.hosted.config.ts), to the same modules below the entry's guard, unchanged.
export { createPaySessionClient } from '../../../packages/server/dist/client/createPaySessionClient.js'
export { isPaySessionError } from '../../../packages/server/dist/errors/index.js'
export { confirmStatus } from '../../../packages/server/dist/webhooks/confirmStatus.js'
export { createWebhookHandler } from '../../../packages/server/dist/webhooks/createWebhookHandler.js'
export { createMemoryDedupeStore } from '../../../packages/server/dist/webhooks/dedupe.js'
