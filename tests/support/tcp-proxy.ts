// A TCP proxy that can partition the network: while partitioned it forwards nothing in either
// direction and closes nothing, as a dead link or a dropped NAT entry does; new connections are
// accepted and left waiting. It can also stand in for a Postgres that is down (every connection
// closed at once) or starting up (every connection answered as Postgres does then, 57P03).
// heal() lets everything through again.
import { createServer, connect, type Server, type Socket } from 'node:net'

export type TcpProxy = {
  /** The port the proxy listens on (127.0.0.1). */
  port: number
  partition(): void
  /** Closes every connection, and each new one at once: the server stopped. */
  down(): void
  /** Answers each new connection's startup as a starting Postgres does, and closes it. */
  startingUp(): void
  heal(): void
  /** When each connection was accepted (performance.now()), and how it was answered. */
  readonly accepted: { at: number; answer: Mode }[]
  close(): Promise<void>
}

type Pair = { client: Socket; upstream: Socket | null }
type Mode = 'linked' | 'partitioned' | 'down' | 'starting-up'

// Postgres's ErrorResponse for a connection it cannot take yet: severity, code, message.
const STARTING_UP = (() => {
  const fields = Buffer.from(
    'SFATAL\0VFATAL\0C57P03\0Mthe database system is starting up\0\0',
  )
  const head = Buffer.alloc(5)
  head.write('E')
  head.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([head, fields])
})()

export async function startTcpProxy(target: {
  host: string
  port: number
}): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let partitioned = false
  let refusing: 'down' | 'starting-up' | null = null
  const accepted: { at: number; answer: Mode }[] = []

  const link = (pair: Pair) => {
    const { client } = pair
    if (!client.readable) return pairs.delete(pair)
    const upstream = (pair.upstream ??= connect(target.port, target.host))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
    client.on('close', () => {
      pairs.delete(pair)
      // Across a partition the peer hears nothing of it until the link is back.
      if (!partitioned) upstream.destroy()
    })
    client.pipe(upstream)
    upstream.pipe(client)
    client.resume()
  }

  const server: Server = createServer((client) => {
    client.on('error', () => {})
    accepted.push({
      at: performance.now(),
      answer: refusing ?? (partitioned ? 'partitioned' : 'linked'),
    })
    if (refusing === 'down') return void client.destroy()
    if (refusing === 'starting-up') {
      // After the client's startup message, as Postgres answers it.
      client.once('data', () => client.end(STARTING_UP))
      return
    }
    const pair: Pair = { client, upstream: null }
    pairs.add(pair)
    client.pause()
    if (!partitioned) link(pair)
  })
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve()),
  )
  const { port } = server.address() as { port: number }

  return {
    port,
    partition() {
      partitioned = true
      for (const { client, upstream } of pairs) {
        client.unpipe()
        upstream?.unpipe()
        client.pause()
        upstream?.pause()
      }
    },
    down() {
      refusing = 'down'
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream?.destroy()
      }
      pairs.clear()
    },
    startingUp() {
      refusing = 'starting-up'
    },
    accepted,
    heal() {
      refusing = null
      partitioned = false
      for (const pair of pairs) {
        const { client, upstream } = pair
        if (!upstream) link(pair)
        else if (client.destroyed) {
          upstream.destroy()
          pairs.delete(pair)
        } else {
          client.pipe(upstream)
          upstream.pipe(client)
          client.resume()
          upstream.resume()
        }
      }
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream?.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
