import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'

/**
 * A small WalletConnect v2 relay for tests: the `irn_*` JSON-RPC over WebSocket that the 2.25
 * clients speak, plus the two combined publishes the sign client sends (`wc_proposeSession`,
 * `wc_approveSession`). Messages live per topic until their TTL and reach every subscriber but
 * their sender, including one that subscribes later (a wallet scanning the QR after the dapp has
 * published its proposal). The relay-auth JWT and project id are accepted unread; the payloads
 * are end-to-end encrypted and stay opaque here, as on the real relay.
 */
export interface Relay {
  url: string
  close(): Promise<void>
}

interface Message {
  topic: string
  message: string
  publishedAt: number
  expiresAt: number
  tag: number
  attestation?: string
  sender: WebSocket
  deliveredTo: Set<WebSocket>
}

interface Request {
  id: number | string
  jsonrpc: '2.0'
  method: string
  params?: Record<string, unknown>
}

export async function startRelay(port = 0): Promise<Relay> {
  const server: Server = createServer((_req, res) => {
    res.statusCode = 426
    res.end()
  })
  const wss = new WebSocketServer({ server })
  const subscribers = new Map<string, Set<WebSocket>>()
  const messages: Message[] = []
  let nextId = Date.now() * 1000

  const sockets = new Map<WebSocket, number>()
  const subscriptionId = (topic: string, socket: WebSocket) =>
    `${topic}:${sockets.get(socket) ?? 0}`

  const live = () => {
    const now = Date.now()
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]!.expiresAt < now) messages.splice(i, 1)
    }
  }

  const push = (socket: WebSocket, message: Message) => {
    message.deliveredTo.add(socket)
    socket.send(
      JSON.stringify({
        id: nextId++,
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: {
          id: subscriptionId(message.topic, socket),
          data: {
            topic: message.topic,
            message: message.message,
            publishedAt: message.publishedAt,
            tag: message.tag,
            ...(message.attestation ? { attestation: message.attestation } : {}),
          },
        },
      }),
    )
  }

  const publish = (
    sender: WebSocket,
    topic: string,
    text: string,
    ttl: number,
    tag: number,
    attestation?: string,
  ) => {
    const message: Message = {
      topic,
      message: text,
      publishedAt: Date.now(),
      expiresAt: Date.now() + ttl * 1000,
      tag,
      ...(attestation ? { attestation } : {}),
      sender,
      deliveredTo: new Set(),
    }
    messages.push(message)
    for (const socket of subscribers.get(topic) ?? []) {
      if (socket !== sender) push(socket, message)
    }
  }

  const pending = (socket: WebSocket, topics: string[]) => {
    live()
    return messages.filter(
      (m) => topics.includes(m.topic) && m.sender !== socket && !m.deliveredTo.has(socket),
    )
  }

  const subscribe = (socket: WebSocket, topic: string) => {
    const set = subscribers.get(topic) ?? new Set<WebSocket>()
    subscribers.set(topic, set)
    set.add(socket)
    return subscriptionId(topic, socket)
  }

  const handle = (socket: WebSocket, request: Request): unknown => {
    const p = (request.params ?? {}) as Record<string, any>
    const ttl = Number(p.ttl ?? 300)
    const tag = Number(p.tag ?? 0)
    switch (request.method) {
      case 'irn_subscribe':
        return subscribe(socket, p.topic)
      case 'irn_batchSubscribe':
        return (p.topics as string[]).map((topic) => subscribe(socket, topic))
      case 'irn_unsubscribe':
        subscribers.get(p.topic)?.delete(socket)
        return true
      case 'irn_batchUnsubscribe':
        for (const { topic } of p.subscriptions ?? []) subscribers.get(topic)?.delete(socket)
        return true
      case 'irn_publish':
        publish(socket, p.topic, p.message, ttl, tag, p.attestation)
        return true
      case 'irn_batchPublish':
        for (const m of p.messages ?? []) {
          publish(socket, m.topic, m.message, Number(m.ttl ?? ttl), Number(m.tag ?? 0))
        }
        return true
      // The combined publishes also subscribe their sender to the topic its answer comes on.
      case 'wc_proposeSession':
        subscribe(socket, p.pairingTopic)
        publish(socket, p.pairingTopic, p.sessionProposal, ttl, tag, p.attestation)
        return true
      case 'wc_approveSession':
        subscribe(socket, p.sessionTopic)
        publish(socket, p.pairingTopic, p.sessionProposalResponse, ttl, tag)
        publish(socket, p.sessionTopic, p.sessionSettlementRequest, ttl, tag)
        return true
      case 'irn_batchFetchMessages':
      case 'irn_fetchMessages': {
        const topics: string[] = p.topics ?? [p.topic]
        const found = pending(socket, topics)
        for (const m of found) m.deliveredTo.add(socket)
        return {
          messages: found.map((m) => ({
            topic: m.topic,
            message: m.message,
            publishedAt: m.publishedAt,
            tag: m.tag,
            ...(m.attestation ? { attestation: m.attestation } : {}),
          })),
          hasMore: false,
        }
      }
      default:
        throw new Error(`method not found: ${request.method}`)
    }
  }

  let socketCount = 0
  wss.on('connection', (socket) => {
    sockets.set(socket, ++socketCount)
    // The Node clients drop a connection that has not been pinged for a while.
    const ping = setInterval(() => socket.ping(), 5_000)
    socket.on('close', () => {
      clearInterval(ping)
      sockets.delete(socket)
      for (const set of subscribers.values()) set.delete(socket)
    })
    socket.on('message', (data) => {
      let payload: Request | { id: unknown; result?: unknown; error?: unknown }
      try {
        payload = JSON.parse(String(data))
      } catch {
        return
      }
      // A client's acknowledgement of an `irn_subscription` push.
      if (!('method' in payload)) return
      let reply: object
      try {
        const result = handle(socket, payload)
        reply = { id: payload.id, jsonrpc: '2.0', result }
      } catch (error) {
        reply = {
          id: payload.id,
          jsonrpc: '2.0',
          error: { code: -32601, message: (error as Error).message },
        }
      }
      socket.send(JSON.stringify(reply))
      // Messages kept for a topic before this socket subscribed to it.
      if (payload.method === 'irn_subscribe' || payload.method === 'irn_batchSubscribe') {
        const p = payload.params as Record<string, any>
        for (const m of pending(socket, p.topics ?? [p.topic])) push(socket, m)
      }
    })
  })

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate()
        wss.close()
        server.close(() => resolve())
      }),
  }
}
