// The same payment for every app: 10 USDC on Base to one merchant address.
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const
// Checksummed: viem refuses an address whose mixed case does not match its checksum.
export const MERCHANT = '0x70997970C51812dc3a04C0e3Cf1CcdA4F5fE0B1e' as const
export const AMOUNT = 10_000_000n // 10 USDC, 6 decimals
// Placeholder ids: the SDKs need one to initialise; nothing is fetched at bundle time.
export const PROJECT_ID = '00000000000000000000000000000000'
