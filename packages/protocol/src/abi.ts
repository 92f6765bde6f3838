// The token contracts the service settles in, as data: the one home of these ABIs. Core's hand
// encoder derives its selectors and topic from them; server and sandbox hand them to viem.

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
 * EIP-3009 as Circle's FiatToken v2 has it (circlefin/stablecoin-evm contracts/v2/EIP3009.sol);
 * the bytes-signature form of transferWithAuthorization is FiatToken v2.2's, which also accepts
 * ERC-1271 signatures from smart accounts. `name` and `version` are the EIP-712 domain.
 */
export const eip3009Abi = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'name',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'string' }],
  },
  {
    type: 'function',
    name: 'version',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'string' }],
  },
  {
    type: 'function',
    name: 'decimals',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint8' }],
  },
] as const

/** The EIP-712 message type a customer signs for `transferWithAuthorization`. */
export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

/** The canonical signature of an ABI function or event, e.g. `transfer(address,uint256)`. */
export const abiSignature = (item: {
  readonly name: string
  readonly inputs: readonly { readonly type: string }[]
}): string => `${item.name}(${item.inputs.map((input) => input.type).join(',')})`
