// The order page follows the session live: it asks the merchant server, which asks the service.
const section = document.querySelector('[data-live="order"]')
const terminal = new Set(['SUCCEEDED', 'CANCELED', 'ERROR'])
let status = section?.querySelector('[data-status]')?.dataset.status
let last

async function poll() {
  if (!section || terminal.has(status)) return
  try {
    const id = encodeURIComponent(section.dataset.session)
    const response = await fetch(`/orders/${id}/live`, { headers: { accept: 'application/json' } })
    if (response.ok) {
      const next = await response.json()
      if (last !== next.html) section.innerHTML = next.html
      last = next.html
      status = next.status
    }
  } catch {}
  setTimeout(poll, document.hidden ? 5000 : 1500)
}
setTimeout(poll, 1500)
