// Configures the element from the query string and records every paysession-* event.
const params = new URLSearchParams(location.search)
const element = document.querySelector('paysession-checkout')
window.__events = []
for (const type of [
  'ready',
  'open',
  'close',
  'step-change',
  'wallet-connected',
  'token-selected',
  'funding-sent',
  'status-change',
  'paid',
  'error',
])
  document.addEventListener(`paysession-${type}`, (event) =>
    window.__events.push({ type: event.type, detail: event.detail, composed: event.composed }),
  )
// The merchant's page hands a fresh session token when asked (from its server).
if (params.get('token-provider'))
  element.tokenProvider = async (id) => {
    const response = await fetch(`/__sandbox/token?session=${encodeURIComponent(id)}`)
    return response.ok ? (await response.json()).paymentSessionToken : undefined
  }
// Core's polling settings, as JSON (`polling`): a test shortens a wait it is not about.
if (params.get('polling')) element.polling = JSON.parse(params.get('polling'))
if (params.get('rpc')) element.rpcUrls = { 31337: params.get('rpc') }
for (const name of [
  'locale',
  'theme',
  'merchant-name',
  'merchant-logo',
  'expected-amount',
  'expected-currency',
  'api-base',
  'session-token',
  'session-id',
  'wallet-connect-project-id',
  'wallet-connect-relay-url',
  'rpc-urls',
  'tokens',
  'networks',
  'allow-token-overrides',
  'x402-url',
])
  if (params.get(name)) element.setAttribute(name, params.get(name))
