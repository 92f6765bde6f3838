// The same package from CommonJS: require('@paysession/server') on the Node versions it declares.
const { createPaySessionClient, waitForCapture } = require('@paysession/server')

const paysession = createPaySessionClient({
  apiBase: process.env.PAYSESSION_API_URL,
  apiKey: process.env.PAYSESSION_API_KEY,
})
const id = process.argv[2]

async function main() {
  const capture = await paysession.createCapture(id, {
    captureAmount: '7.50',
    isFinalCapture: true,
  })
  await waitForCapture(paysession, id, capture.captureId)
  for (let i = 0; i < 60; i++) {
    const session = await paysession.getSession(id)
    if (session.status === 'SUCCEEDED') return console.log(session.status)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`session ${id} never SUCCEEDED`)
}
main().catch((error) => {
  console.error(error)
  process.exit(1)
})
