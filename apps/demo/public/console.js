// The merchant console refreshes its lists in place. The capture form is not re-rendered
// (so typing is never interrupted); it is enabled only while the session is FUNDED.
const detail = document.querySelector('.detail')
const session = detail?.dataset.session ?? ''
const fieldset = document.querySelector('.capture-form fieldset')
const amount = document.querySelector('#capture-amount')
const last = {}
let touched = false
amount?.addEventListener('input', () => {
  touched = true
})

async function refresh() {
  try {
    const query = session ? `?session=${encodeURIComponent(session)}` : ''
    const response = await fetch(`/console/live${query}`, {
      headers: { accept: 'application/json' },
    })
    if (response.ok) {
      const live = await response.json()
      for (const key of ['sessions', 'detail', 'webhooks']) {
        const element = document.querySelector(`[data-live="${key}"]`)
        // The first answer replaces the server-rendered markup once; then only changes do.
        if (element && last[key] !== live[key]) element.innerHTML = live[key]
        last[key] = live[key]
      }
      if (fieldset) fieldset.disabled = live.status !== 'FUNDED'
      if (amount && !touched && live.capturableAmount) amount.value = live.capturableAmount
    }
  } catch {}
  setTimeout(refresh, document.hidden ? 6000 : 2000)
}
setTimeout(refresh, 2000)

// A submitted capture disables its buttons until the page comes back.
document.querySelector('.capture-form')?.addEventListener('submit', () => {
  setTimeout(() => {
    if (fieldset) fieldset.disabled = true
  })
})
