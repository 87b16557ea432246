// The benchmark's load process: the writers and every HTTP client (followers, snapshot reader,
// shape creator), forked by scripts/bench-engine.ts and driven by its commands (see ipc.ts).
import pg from 'pg'
import { Follower, readShape, ShapeClient, type Message } from './client.ts'
import { FanoutClients } from './fanout-clients.ts'
import type { Command, FromLoad, Replies, ToLoad } from './ipc.ts'
import { measureMoves, moveWatcher } from './moves.ts'
import {
  commitMark,
  Markers,
  measureLatency,
  writeWindow,
  Writer,
} from './workload.ts'

/** Nothing here outlives the run: a hard stop for every follower loop. */
const DEADLINE = performance.now() + 15 * 60_000

const markers = new Markers()
let pool: { single: pg.Client; writers: Writer[] } | null = null
let client: ShapeClient | null = null
let shapeUrl = ''
let followers: Follower[] = []
let fanout: FanoutClients | null = null
let unreported = 0

const send = (message: FromLoad) => process.send?.(message)

const connect = async (url: string) => {
  const c = new pg.Client({ connectionString: url })
  c.on('error', () => {})
  await c.connect()
  return c
}

const onChanges = (changes: Message[], at: number) => {
  unreported += changes.length
  for (const c of changes) markers.seen(c.value?.body, at)
}

const http = () => (client ??= new ShapeClient(shapeUrl))
const db = () => {
  if (!pool) throw new Error('not initialised')
  return pool
}

async function run<C extends Command>(
  command: C,
): Promise<Replies[keyof Replies]> {
  switch (command.kind) {
    case 'init': {
      const single = await connect(command.pgUrl)
      const writers = await Promise.all(
        [0, 1].map(
          async (parity) =>
            new Writer(await connect(command.pgUrl), parity, command.writer),
        ),
      )
      pool = { single, writers }
      return null
    }
    case 'engine':
      shapeUrl = command.shapeUrl
      return null
    case 'writer':
      for (const writer of db().writers) writer.reshape(command.writer)
      return null
    case 'latency':
      return measureLatency({ ...command, client: db().single, markers })
    case 'follow': {
      const t = performance.now()
      const started = command.specs.map((spec) =>
        new Follower(http(), spec, {
          live: true,
          onChanges,
          onReply: command.watchMoves
            ? moveWatcher(spec.params?.[0] ?? '', markers)
            : undefined,
          deadline: DEADLINE,
        }).start(),
      )
      followers.push(...started)
      await Promise.all(started.map((f) => f.ready))
      const failed = started.filter((f) => !f.upToDate)
      return {
        ms: performance.now() - t,
        failed: failed.length,
        failure: failed[0]?.failure ?? null,
      }
    }
    case 'moves':
      return measureMoves({ ...command, client: db().single, markers })
    case 'unfollow': {
      const stopping = followers
      followers = []
      await Promise.all(stopping.map((f) => f.stop()))
      for (const f of stopping) if (f.handle) await http().deleteShape(f.handle)
      return null
    }
    case 'write':
      return writeWindow({ ...command, ...db(), markers })
    case 'settle': {
      const { sent, seen } = await commitMark(
        db().single,
        markers,
        `settle-${Date.now()}`,
        command.timeoutMs,
      )
      const at = await seen
      return { ms: at === null ? null : at - sent }
    }
    case 'create': {
      let next = 0
      let created = 0
      let failure: string | null = null
      const worker = async () => {
        while (next < command.specs.length && !failure) {
          const spec = command.specs[next++]
          if (!spec) break
          const result = await readShape(http(), spec, DEADLINE)
          if (result.failure) failure ??= result.failure
          else created++
        }
      }
      await Promise.all(Array.from({ length: command.concurrency }, worker))
      return { created, failure }
    }
    case 'disconnect':
      // Followers close their own connections when they stop; a new client starts afresh.
      client = null
      return null
    case 'fanout-follow':
      await fanout?.stop()
      fanout = new FanoutClients(command.shapeUrl)
      return fanout.start(command.spec, command.clients, DEADLINE)
    case 'fanout-arrivals': {
      if (!fanout) throw new Error('no fan-out clients')
      const { times, missing } = await fanout.arrivalsOf(
        command.marker,
        command.timeoutMs,
      )
      return { times, missing }
    }
    case 'fanout-stop':
      await fanout?.stop()
      fanout = null
      return null
    case 'close':
      await fanout?.stop()
      await Promise.all(followers.map((f) => f.stop()))
      if (pool)
        for (const c of [pool.single, ...pool.writers.map((w) => w.client)])
          await c.end().catch(() => {})
      setImmediate(() => process.exit(0))
      return null
  }
}

process.on('message', (message: ToLoad) => {
  if ('seen' in message) return markers.seen(message.seen, message.at)
  run(message.command).then(
    (reply) => send({ id: message.id, reply }),
    (error: unknown) =>
      send({ id: message.id, error: (error as Error).stack ?? String(error) }),
  )
})

// Delivery counts, batched: one IPC message per 100 ms rather than per response.
setInterval(() => {
  if (unreported === 0) return
  send({ received: unreported })
  unreported = 0
}, 100).unref()

// Orphaned (the engine process died): nothing to do any more.
process.on('disconnect', () => process.exit(1))
