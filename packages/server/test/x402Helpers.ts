import type { Server } from 'node:http'
import type { Sandbox } from '@paysession/sandbox'
import { x402Client } from '@x402/core/client'
import { x402Facilitator } from '@x402/core/facilitator'
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http'
import type { PaymentRequirements } from '@x402/core/types'
import { type ClientEvmSigner, toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { wrapFetchWithPayment } from '@x402/fetch'
import {
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  publicActions,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toNodeListener } from '../src/node.js'
import { createMemoryRelayStoreForTestsOnly } from '../src/relay.js'
import { createX402Handler, type X402HandlerOptions } from '../src/x402.js'
import { close, listen } from './helpers.js'
import type { RelayKit } from './relayHelpers.js'

/** The x402 side of the tests: the endpoint over HTTP, agents, and x402's own facilitator. */
export function x402Kit(sb: Sandbox, kit: RelayKit) {
  const servers: Server[] = []
  const network = `eip155:${sb.chainId}` as const

  async function serve(listener: Parameters<typeof listen>[0]): Promise<string> {
    const { server, url } = await listen(listener)
    servers.push(server)
    return url
  }

  /** The endpoint, listening on a port: through the relayer unless `facilitator` is given. */
  async function endpoint(options: Partial<X402HandlerOptions> = {}) {
    const handler = createX402Handler({
      client: kit.client,
      ...(options.facilitator ? {} : { relayer: sb.relayer.privateKey }),
      networks: kit.networks,
      store: createMemoryRelayStoreForTestsOnly(),
      rateLimit: false,
      ...options,
    })
    const base = await serve(toNodeListener(handler))
    return (sessionId: string) => `${base}/x402?session=${sessionId}`
  }

  /** An x402 client for `signer` that agrees to pay the sandbox's USDC. */
  function client(signer: ClientEvmSigner) {
    return x402Client.fromConfig({
      schemes: [{ network, client: new ExactEvmScheme(signer) }],
      spendControls: {
        allowedAssets: [
          { network, asset: sb.tokens.USDC.address, maxAmountPerPayment: '100000000' },
        ],
      },
    })
  }

  /** `@x402/fetch` for `key`, recording each request it sends and the answer's status. */
  function agent(signer: ClientEvmSigner) {
    const sent: { payment: string | null; status: number }[] = []
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init)
      const payment = request.headers.get('payment-signature')
      const response = await fetch(request)
      sent.push({ payment, status: response.status })
      return response
    }
    return { pay: wrapFetchWithPayment(recording, client(signer)), sent }
  }

  /**
   * A payment signed by the real x402 client for what the endpoint asks, with `override`
   * changed first: what a careless or hostile agent would send.
   */
  async function signedPayment(
    signer: ClientEvmSigner,
    url: string,
    override: Partial<PaymentRequirements> = {},
  ): Promise<string> {
    const answer = await fetch(url)
    if (answer.status !== 402) throw new Error(`expected 402, got ${answer.status}`)
    const required = decodePaymentRequiredHeader(answer.headers.get('payment-required')!)
    const tampered = { ...required, accepts: [{ ...required.accepts[0]!, ...override }] }
    const unchecked = x402Client.fromConfig({
      schemes: [{ network, client: new ExactEvmScheme(signer) }],
      spendControls: false,
    })
    return encodePaymentSignatureHeader(await unchecked.createPaymentPayload(tampered))
  }

  /** Posts a payment header to the endpoint. */
  const pay = (url: string, header: string) =>
    fetch(url, { method: 'POST', headers: { 'payment-signature': header } })

  /**
   * x402's own facilitator (`@x402/evm`'s exact scheme) against anvil, behind a small HTTP
   * server answering `/verify`, `/settle` and `/supported` as a hosted one does.
   */
  async function facilitator() {
    const key = generatePrivateKey()
    const account = privateKeyToAccount(key)
    await createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) }).setBalance({
      address: account.address,
      value: parseEther('10'),
    })
    const wallet = createWalletClient({ account, transport: http(sb.rpcUrl) }).extend(publicActions)
    const signer = toFacilitatorEvmSigner({
      address: account.address,
      readContract: (args) => wallet.readContract(args as never),
      verifyTypedData: (args) => wallet.verifyTypedData(args as never),
      writeContract: (args) => wallet.writeContract({ ...args, chain: null } as never),
      sendTransaction: (args) => wallet.sendTransaction({ ...args, chain: null }),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
      getCode: (args) => wallet.getCode(args),
    })
    const x402 = registerExactEvmScheme(new x402Facilitator(), { signer, networks: network })
    const url = await serve(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const answer = (status: number, body: unknown) =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
      try {
        if (req.method === 'GET' && req.url === '/supported')
          return answer(200, x402.getSupported())
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}')
        if (req.url === '/verify')
          return answer(200, await x402.verify(body.paymentPayload, body.paymentRequirements))
        if (req.url === '/settle')
          return answer(200, await x402.settle(body.paymentPayload, body.paymentRequirements))
        answer(404, {})
      } catch (error) {
        answer(500, { error: String(error) })
      }
    })
    return { url, address: account.address }
  }

  const stop = () => Promise.all(servers.map(close))

  return { network, endpoint, client, agent, signedPayment, pay, facilitator, stop }
}

export const settlementOf = (response: Response) =>
  decodePaymentResponseHeader(response.headers.get('payment-response')!)

export const requiredOf = (response: Response) =>
  decodePaymentRequiredHeader(response.headers.get('payment-required')!)

export const accountOf = (key: Hex) => privateKeyToAccount(key)
