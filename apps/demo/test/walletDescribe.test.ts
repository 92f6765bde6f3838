// What the Sandbox Wallet's prompts say (apps/demo/wallet/describe.ts): calls decoded with the
// protocol's token ABIs, amounts exact. The prompts themselves run in e2e (tests/wallet.spec.ts).
import { eip3009Abi, stablecoinAbi, transferWithAuthorizationTypes } from '@paysession/protocol'
import { encodeFunctionData } from 'viem'
import { describe, expect, it } from 'vitest'
import { describeSignature, describeTransaction, units } from '../wallet/describe.ts'

const usdc = { symbol: 'USDC', address: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC', decimals: 6 }
const to = '0x222E534d229C675a999Fe2A1847099Da91d9F133'
const from = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const context = { tokens: [usdc], from, network: 'Local (sandbox)' }

describe('Sandbox Wallet prompts', () => {
  it('shows amounts with at least two decimals and nothing rounded', () => {
    expect(units(12_000_000n, 6)).toBe('12.00')
    expect(units(12_345_678n, 6)).toBe('12.345678')
    expect(units(1n, 6)).toBe('0.000001')
    expect(units(10n ** 18n, 18)).toBe('1.00')
    expect(units(7n, 0)).toBe('7')
  })

  it('shows an ERC-20 transfer as the tokens it sends, to whom', () => {
    const data = encodeFunctionData({
      abi: stablecoinAbi,
      functionName: 'transfer',
      args: [to, 24_500_000n],
    })
    expect(describeTransaction({ to: usdc.address, data }, context)).toEqual([
      ['Send', '24.50 USDC'],
      ['To', to],
      ['Token contract', usdc.address],
      ['From', from],
      ['Network', 'Local (sandbox)'],
    ])
    // An unknown token: the raw units, never a guessed decimal point.
    expect(describeTransaction({ to, data }, context)[0]).toEqual([
      'Send',
      '24500000 (token units)',
    ])
  })

  it('shows a submitted EIP-3009 authorization as the transfer it makes', () => {
    const data = encodeFunctionData({
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: [from, to, 1_500_000n, 0n, 2n ** 40n, `0x${'11'.repeat(32)}`, '0x1234'],
    })
    const rows = describeTransaction({ to: usdc.address, data }, context)
    expect(rows[0]).toEqual(['Submit a signed transfer of', '1.50 USDC'])
    expect(rows).toContainEqual(['To', to])
  })

  it('shows anything else as its raw fields', () => {
    const rows = describeTransaction(
      { to, data: '0xdeadbeef00', value: '0x0de0b6b3a7640000' },
      context,
    )
    expect(rows).toEqual([
      ['To', to],
      ['Value', '1.00 ETH'],
      ['Data', '0xdeadbeef… (5 bytes)'],
      ['From', from],
    ])
  })

  it('shows an EIP-712 transfer authorization as the transfer it allows', () => {
    const typed = {
      domain: { name: 'USDC', version: '2', chainId: 31337, verifyingContract: usdc.address },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from,
        to,
        value: '12000000',
        validAfter: '0',
        validBefore: '1900000000',
        nonce: '0x00',
      },
    }
    const rows = describeSignature('eth_signTypedData_v4', [from, JSON.stringify(typed)], {
      tokens: [usdc],
      account: from,
    })
    expect(rows[0]).toEqual(['Authorize a transfer of', '12.00 USDC'])
    expect(rows).toContainEqual(['To', to])
    // Then the signer and, unabridged, exactly what is signed.
    expect(rows.at(-2)).toEqual(['Signed as', from])
    expect(rows.at(-1)?.[0]).toBe('Signs exactly')
    expect(JSON.parse(rows.at(-1)![1])).toEqual(typed)
  })

  it('shows a personal message as text when it is UTF-8, as hex when not', () => {
    const text = (message: string) =>
      describeSignature('personal_sign', [message, from], { tokens: [], account: from }).at(-1)
    expect(text('0x48656c6c6f')).toEqual(['Signs exactly', 'Hello'])
    expect(text('0xff00')).toEqual(['Signs exactly', '0xff00'])
  })
})
