// The token contracts the service settles in, as data: the one home of these ABIs (EIP-3009's in
// eip3009.ts), handed to viem's coder by core, server and sandbox.

/**
 * The ERC-20 subset a payment uses. `transfer` declares no outputs so tokens whose transfer
 * returns nothing (mainnet USDT) and standard ones are called the same way; nothing decodes a
 * return value.
 */
export const stablecoinAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { indexed: true, name: 'from', type: 'address' },
      { indexed: true, name: 'to', type: 'address' },
      { indexed: false, name: 'value', type: 'uint256' },
    ],
  },
] as const

/**
 * What the checkout reads of a token before any prompt, to compare with its registry:
 * `decimals()`, and for EIP-3009 payments the EIP-712 domain, from EIP-5267's `eip712Domain()`
 * where the token has it, else from `name()` and `version()` (Circle's FiatToken).
 */
export const tokenMetadataAbi = [
  {
    type: 'function',
    name: 'decimals',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'uint8' }],
  },
  {
    type: 'function',
    name: 'name',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'string' }],
  },
  {
    type: 'function',
    name: 'version',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'string' }],
  },
  {
    type: 'function',
    name: 'eip712Domain',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { type: 'bytes1' },
      { type: 'string' },
      { type: 'string' },
      { type: 'uint256' },
      { type: 'address' },
      { type: 'bytes32' },
      { type: 'uint256[]' },
    ],
  },
] as const

/**
 * The controls of Circle's FiatToken (USDC, EURC) a payment can meet: the issuer pausing the
 * token, and blacklisting an address, which then can neither send nor receive it. Read before
 * any prompt; a token without them reverts, which reads as neither.
 */
export const tokenControlsAbi = [
  {
    type: 'function',
    name: 'paused',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'isBlacklisted',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'bool' }],
  },
] as const
