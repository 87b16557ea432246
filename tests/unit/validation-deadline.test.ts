// The whole-check limit: a server that accepts and never answers is cut off at the deadline,
// not left to the per-connection timeouts.
import { createServer, type Socket } from 'node:net'
import { expect, it } from 'vitest'
import { checkDatabase } from '../../src/server/validation/check.ts'

it('ends every connection when the check runs out of time', async () => {
  const sockets: Socket[] = []
  const silent = createServer((socket) => {
    socket.on('error', () => {})
    sockets.push(socket)
  })
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
  const { port } = silent.address() as { port: number }
  try {
    const started = performance.now()
    const result = await checkDatabase(
      `postgres://u:pw@127.0.0.1:${port}/db?sslmode=disable`,
      { allowPrivate: true, timeoutMs: 200 },
    )
    // Well under the 5 s connect timeout: the deadline, not pg, ended the wait.
    expect(performance.now() - started).toBeLessThan(4_000)
    expect(result).toMatchObject({
      can_connect: false,
      can_connect_without_replication: false,
      connection_error: 'The check took longer than 0.2 seconds.',
    })
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((r) => silent.close(r))
  }
})
