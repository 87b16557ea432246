// F4: the network between engine and source stops forwarding without closing anything (a TCP
// proxy, tests/support/tcp-proxy.ts). The engine must notice within its silence timeout, say
// `reconnecting`, be `active` again once the link heals, and its client must end with every
// committed row exactly once. 60 s in the script, 6 s in `npm test`.
import { createTestDatabase } from '../support/database.ts'
import { startTestEngine } from '../support/engine.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultScenario } from './scenario.ts'
import { follow, settle, truthOf, writeLoad } from './support.ts'

const COLUMNS = ['id', 'body']

export const f4: FaultScenario = {
  id: 'F4',
  title: 'network partition engine ↔ source, healed',
  quick: true,
  async run(ctx) {
    const silenceMs = ctx.quick ? 2_000 : 10_000
    const partitionMs = ctx.quick ? 6_000 : 60_000
    const source = await createTestDatabase(ctx.adminUrl)
    await source.db.query('create table events (id int primary key, body text)')
    const direct = new URL(source.url)
    const proxy = await startTcpProxy({
      host: direct.hostname,
      port: Number(direct.port),
    })
    const through = new URL(source.url)
    through.port = String(proxy.port)
    const engine = await startTestEngine(through.toString(), { silenceMs })
    const client = follow(engine.shapeUrl, 'events')
    try {
      const load = writeLoad(source.db, 'events')
      await waitUntil('rows to reach the client', () => client.rows.size >= 50)
      proxy.partition()
      const cut = performance.now()
      // Rows committed while the engine cannot hear must arrive after the heal, once.
      await waitUntil(
        'the engine to notice',
        () => engine.database.status !== 'active',
        silenceMs * 5,
      )
      const noticedMs = Math.round(performance.now() - cut)
      if (noticedMs > silenceMs * 3)
        throw new Error(
          `the partition was noticed after ${noticedMs} ms (timeout ${silenceMs} ms)`,
        )
      ctx.log(
        `F4: partition noticed after ${noticedMs} ms (${engine.database.status})`,
      )
      await waitUntil(
        'the partition to last',
        () => performance.now() - cut >= partitionMs,
        partitionMs * 2,
      )
      proxy.heal()
      const healed = performance.now()
      await waitUntil(
        'the engine to be active again',
        () => engine.database.status === 'active',
      )
      const atHeal = load.written
      await waitUntil(
        'writes after the heal',
        () => load.written >= atHeal + 20,
      )
      await load.stop()
      const result = await settle(
        client,
        () => truthOf(source.db, 'events', COLUMNS),
        COLUMNS,
        healed,
      )
      return {
        ...result,
        notes: `${result.notes}; noticed after ${noticedMs} ms`,
      }
    } finally {
      client.stop()
      await engine.destroy().catch(() => {})
      await proxy.close()
      await source.drop()
    }
  },
}
