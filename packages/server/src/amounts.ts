// The decimal-amount rule is the protocol's (one rule for core, server and sandbox).
export { assertAmount, isValidAmount } from '@paysession/protocol'
