// The pinned socket every connection to a user's database goes through: it asks the pinner on
// each connect, goes to the address it answered, refuses what it refuses, and leaves the host
// name to TLS (SNI and certificate checks). A local TCP server stands in for Postgres.
import { createServer, type Server, type Socket } from 'node:net'
import { TLSSocket } from 'node:tls'
import pg from 'pg'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ADDRESS_REFUSED,
  AddressRefusedError,
  pinnedConnection,
  type HostPinner,
} from '../../src/engine/pg/pinned-socket.ts'

const NAME = 'db.rebind.test' // resolves nowhere: only the pinner can route it

let server: Server | undefined
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null))
  server = undefined
})

/** A server on 127.0.0.1 that hands each new socket to `onSocket`; answers its port. */
async function listen(onSocket: (socket: Socket) => void): Promise<number> {
  const s = createServer((socket) => {
    socket.on('error', () => {})
    onSocket(socket)
  })
  server = s
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const address = s.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

function connect(url: string, pin: HostPinner) {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    ...pinnedConnection(pin),
  })
  client.on('error', () => {})
  return client.connect().then(
    () => client.end(),
    (error: unknown) => error,
  )
}

describe('the pinned socket', () => {
  it('connects to the pinned address and still sends the host name as SNI', async () => {
    const servername = new Promise<string>((resolve) => {
      void listen((socket) =>
        // The 8-byte SSLRequest: say yes, then read the name from the TLS ClientHello.
        socket.once('data', () => {
          socket.write('S')
          const tls = new TLSSocket(socket, {
            isServer: true,
            SNICallback: (name, done) => {
              resolve(name)
              done(new Error('seen enough'))
            },
          })
          tls.on('error', () => socket.destroy())
        }),
      ).then((port) =>
        connect(`postgresql://u:p@${NAME}:${port}/d?sslmode=verify-full`, pin),
      )
    })
    const pin = vi.fn<HostPinner>(async () => '127.0.0.1')
    expect(await servername).toBe(NAME)
    expect(pin).toHaveBeenCalledWith(NAME)
  })

  it('asks the pinner on every connect and never connects to a refused address', async () => {
    let accepted = 0
    const port = await listen((socket) => {
      accepted += 1
      socket.destroy()
    })
    const pin = vi
      .fn<HostPinner>()
      .mockResolvedValueOnce('127.0.0.1')
      .mockRejectedValueOnce(new AddressRefusedError())
    const url = `postgresql://u:p@${NAME}:${port}/d`
    await connect(url, pin)
    expect(accepted).toBe(1)
    const refused = await connect(url, pin)
    expect(refused).toBeInstanceOf(AddressRefusedError)
    expect((refused as AddressRefusedError).code).toBe(ADDRESS_REFUSED)
    expect(pin).toHaveBeenCalledTimes(2)
    expect(accepted).toBe(1)
  })

  it('refuses a Unix socket, which no pinner could check', async () => {
    const pin = vi.fn<HostPinner>(async () => '127.0.0.1')
    const refused = await connect('postgresql://u:p@%2Ftmp/d', pin)
    expect(refused).toBeInstanceOf(AddressRefusedError)
    expect(pin).not.toHaveBeenCalled()
  })
})
