// The merchant's server, as the README shows it: creates a session with the API key.
import { createPaySessionClient } from '@paysession/server'

const paysession = createPaySessionClient({
  apiBase: process.env.PAYSESSION_API_URL,
  apiKey: process.env.PAYSESSION_API_KEY,
})
const session = await paysession.createSession({
  amount: '7.50',
  currency: 'USD',
  requestId: crypto.randomUUID(),
})
console.log(JSON.stringify(session))
