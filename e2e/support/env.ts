/**
 * Where global-setup.ts started the demo, the sandbox and anvil. Its own module: the browser
 * helpers (widget.ts) need it without demo.ts's chain clients, so the hosted demo's run, which
 * starts none of them, can use those helpers too.
 */
export const env = {
  demo: process.env.E2E_DEMO_URL!,
  api: process.env.E2E_API_URL!,
  apiPort: process.env.E2E_API_PORT!,
  rpc: process.env.E2E_RPC_URL!,
  apiKey: process.env.E2E_API_KEY!,
}
