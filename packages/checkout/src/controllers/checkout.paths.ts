// The checkout's rarer paths (core's recovery, gasless and call-bundle entries) as one lazy chunk,
// loaded by the checkout controller when a customer takes any of them. One chunk, not three:
// lazy chunks that share code with the dialog make the bundler move that code out of the dialog
// into common chunks, which every payment would then load.
export { sendWithCalls } from '@paysession/core/calls'
export { payWithAuthorization } from '@paysession/core/gasless'
export { resume, untrack, waitForPrompt } from '@paysession/core/recovery'
