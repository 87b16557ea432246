// The readiness check in-process: ready on a migrated control plane, not ready naming the
// migrations a database lacks, and not ready within its bound when the control plane accepts a
// connection and never answers (a blackholed address: no error ever comes).
import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '../../src/server/platform/db/database.ts'
import { ReadinessCheck } from '../../src/server/platform/ops/readiness.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const control = useControlPlaneDatabase()

describe('the readiness check', () => {
  let silent: Server
  const sockets = new Set<Socket>()
  let silentPort = 0
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const address = silent.address()
    if (typeof address !== 'object' || !address) throw new Error('no port')
    silentPort = address.port
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
  })

  it('is ready on a migrated control plane', async () => {
    expect(await new ReadinessCheck(control.db).check()).toEqual({
      ready: true,
    })
  })

  it('names the migrations the control plane lacks', async () => {
    const { rows } = await control.db.query<{ name: string }>(
      'delete from schema_migrations where name = (select max(name) from schema_migrations) returning name',
    )
    const name = rows[0]?.name ?? ''
    try {
      expect(await new ReadinessCheck(control.db).check()).toEqual({
        ready: false,
        reason: `Migrations not applied: ${name}`,
      })
    } finally {
      await control.db.query(
        "insert into schema_migrations (name, checksum) values ($1, 'restored')",
        [name],
      )
    }
  })

  it('is not ready within its bound when the control plane never answers', async () => {
    const hung = createPool(`postgres://nobody@127.0.0.1:${silentPort}/none`)
    try {
      const started = performance.now()
      const answer = await new ReadinessCheck(hung, 300).check()
      expect(answer).toEqual({
        ready: false,
        reason: 'The control plane did not answer within 300 ms',
      })
      expect(performance.now() - started).toBeLessThan(2_000)
    } finally {
      for (const socket of sockets) socket.destroy()
      await hung.end()
    }
  })
})
