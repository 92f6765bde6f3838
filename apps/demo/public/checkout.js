// The script-tag checkout page. In sandbox mode the widget reads the local chain through the
// sandbox's RPC (anvil may run on another port than 8545); when the widget says the session is
// paid, point the customer to the order. The server confirms payments with the service itself.
const widget = document.querySelector('paysession-checkout')
// The session token lives an hour; the page may stay open longer. When the service refuses it,
// the widget asks for a fresh one from the merchant's server (which holds the API key).
if (widget) {
  widget.tokenProvider = async (sessionId) => {
    const response = await fetch(`/api/checkout/${encodeURIComponent(sessionId)}/session-token`, {
      method: 'POST',
    })
    return response.ok ? (await response.json()).sessionToken : undefined
  }
}
if (widget?.dataset.rpcUrl) {
  widget.rpcUrls = { [Number(widget.dataset.chainId)]: widget.dataset.rpcUrl }
}
document.addEventListener('paysession-paid', () => {
  const note = document.querySelector('.paid-note')
  if (note) note.hidden = false
})
