// freePort: a port a server can listen on, below the kernel's ephemeral range, where no
// outgoing connection can take it between the check and the listen.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'

const ephemeralLow = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(
    /\s+/,
  )[0],
)

function listen(port: number): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(port, '127.0.0.1', () =>
      resolve(() => new Promise((done) => server.close(() => done()))),
    )
  })
}

describe('freePort', () => {
  it('answers ports below the ephemeral range that a server can listen on', async () => {
    const ports = await Promise.all(
      Array.from({ length: 20 }, () => freePort()),
    )
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024)
      expect(port).toBeLessThan(ephemeralLow)
    }
    const closers = await Promise.all([...new Set(ports)].map(listen))
    await Promise.all(closers.map((close) => close()))
  })
})
