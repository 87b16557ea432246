// Connections to a database someone else names (a user's own database) go through a pinned socket:
// on every connect, the host is resolved and checked by a pinner, and the socket goes to the
// one address it answered. pg keeps the host name, so TLS still sends it as SNI and verifies
// the certificate against it. Without a pinner (the operator's own database) pg connects as usual.
import { Socket } from 'node:net'

/**
 * Resolves a host (name or IP literal) to the single address a connection may use, or throws:
 * AddressRefusedError for an address Sluice may not reach, any other error for a failed lookup.
 * Called once per connection, so a name rebound since the last connect is checked again.
 */
export type HostPinner = (host: string) => Promise<string>

/** The code AddressRefusedError carries, so it reads like any other driver error code. */
export const ADDRESS_REFUSED = 'SLUICE_ADDRESS_REFUSED'

/** The host resolves to an address Sluice may not connect to; the message names none. */
export class AddressRefusedError extends Error {
  readonly code = ADDRESS_REFUSED
  constructor() {
    super('The database host resolves to an address Sluice may not connect to.')
  }
}

class PinnedSocket extends Socket {
  constructor(private readonly pin: HostPinner) {
    super()
  }

  // pg calls connect(port, host) (connect(path) for a Unix socket, which is refused here).
  override connect(port: unknown, host?: unknown): this {
    if (typeof port !== 'number' || typeof host !== 'string') {
      process.nextTick(() => this.destroy(new AddressRefusedError()))
      return this
    }
    this.pin(host).then(
      (address) => {
        // Closed while resolving (a connect timeout, the client ended): connecting now would
        // revive a destroyed socket.
        if (this.destroyed || this.writableEnded) return void this.destroy()
        super.connect(port, address)
      },
      (error: unknown) => this.destroy(error as Error),
    )
    return this
  }
}

/**
 * The pg connection settings that route every connection through `pin`; empty without one.
 * Spread into a pg.Client or pg.Pool config: a pool calls the factory for each new client.
 */
export function pinnedConnection(pin: HostPinner | undefined): {
  stream?: () => Socket
} {
  return pin ? { stream: () => new PinnedSocket(pin) } : {}
}
