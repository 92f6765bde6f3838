// The merchant console refreshes its lists in place. The capture form is not re-rendered
// (so typing is never interrupted); it is enabled only while the session is FUNDED, and
// replaced by a summary once the session can never be captured again.
const detail = document.querySelector('.detail')
const session = detail?.dataset.session ?? ''
const form = document.querySelector('.capture-form')
const fieldset = form?.querySelector('fieldset')
const amount = document.querySelector('#capture-amount')
const notice = document.querySelector('.flash-notice[data-capture]')
const last = {}
// A value the merchant typed (or typed before a refused capture) is never overwritten.
let touched = amount?.hasAttribute('data-typed') ?? false
amount?.addEventListener('input', () => {
  touched = true
})

// The notice and error describe one submission: a reload should not show them again.
if (location.search.includes('notice=') || location.search.includes('error=')) {
  history.replaceState(
    null,
    '',
    session ? `/console?session=${encodeURIComponent(session)}` : '/console',
  )
}

function describe(capture) {
  const what = capture.finalCapture ? 'Final capture' : 'Capture'
  if (capture.status === 'CAPTURED') {
    const refund =
      capture.finalCapture && /[1-9]/.test(capture.refundAmount ?? '')
        ? `, ${capture.refundAmount} refunded to the customer`
        : ''
    return `${what} ${capture.captureId} of ${capture.captureAmount} completed${refund}.`
  }
  if (capture.status === 'FAILED') return `${what} ${capture.captureId} failed on chain.`
  return undefined
}

async function refresh() {
  try {
    const query = session ? `?session=${encodeURIComponent(session)}` : ''
    const response = await fetch(`/console/live${query}`, {
      headers: { accept: 'application/json' },
    })
    if (response.ok) {
      const live = await response.json()
      for (const key of ['sessions', 'detail', 'closed', 'webhooks']) {
        const element = document.querySelector(`[data-live="${key}"]`)
        // The first answer replaces the server-rendered markup once; then only changes do.
        if (element && last[key] !== live[key]) element.innerHTML = live[key]
        last[key] = live[key]
      }
      if (form) form.hidden = Boolean(live.closed)
      if (fieldset) fieldset.disabled = live.status !== 'FUNDED'
      if (amount && !touched && live.capturableAmount) amount.value = live.capturableAmount
      const capture = live.captures?.find((c) => c.captureId === notice?.dataset.capture)
      const text = capture && describe(capture)
      if (notice && text) {
        notice.textContent = text
        notice.classList.toggle('alert-error', capture.status === 'FAILED')
        delete notice.dataset.capture
      }
    }
  } catch {}
  setTimeout(refresh, document.hidden ? 6000 : 2000)
}
setTimeout(refresh, 2000)

// A submitted capture disables its buttons until the page comes back.
form?.addEventListener('submit', () => {
  setTimeout(() => {
    if (fieldset) fieldset.disabled = true
  })
})
