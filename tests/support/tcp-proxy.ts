// A TCP proxy that can partition the network: while partitioned it forwards nothing in either
// direction and closes nothing, as a dead link or a dropped NAT entry does; new connections are
// accepted and left waiting. heal() lets everything through again.
import { createServer, connect, type Server, type Socket } from 'node:net'

export type TcpProxy = {
  /** The port the proxy listens on (127.0.0.1). */
  port: number
  partition(): void
  heal(): void
  close(): Promise<void>
}

type Pair = { client: Socket; upstream: Socket | null }

export async function startTcpProxy(target: {
  host: string
  port: number
}): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let partitioned = false

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
    const pair: Pair = { client, upstream: null }
    pairs.add(pair)
    client.pause()
    client.on('error', () => {})
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
    heal() {
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
