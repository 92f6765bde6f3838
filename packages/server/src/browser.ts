import { browserMessage } from './guard.js'

// The `browser` export condition resolves here, so bundling this package for a
// browser fails at load instead of shipping a merchant API key to customers.
throw new Error(browserMessage)
