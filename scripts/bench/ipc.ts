// The load process (writers, HTTP followers) runs apart from the engine so that its work
// never queues on the engine's event loop. These are the commands the engine process sends
// it, and the engine process's end of the channel.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ShapeSpec } from './client.ts'
import type { Move, MovesResult } from './moves.ts'
import type { LatencyResult, WriteResult, WriterShape } from './workload.ts'

export type Command =
  | { kind: 'init'; pgUrl: string; writer: WriterShape }
  | { kind: 'engine'; shapeUrl: string }
  /** What the writers write from now on (teams, update pool, batch). */
  | { kind: 'writer'; writer: WriterShape }
  | {
      kind: 'latency'
      teams: number
      samples: number
      tag: string
      timeoutMs: number
    }
  /**
   * Starts live followers; replies once all are up to date. `watchMoves`: each reports the
   * moves its shape (a subquery shape whose first param is a user) receives, for `moves`.
   */
  | { kind: 'follow'; specs: ShapeSpec[]; watchMoves?: boolean }
  /** Makes each membership move in turn and times it to its follower (moves.ts). */
  | { kind: 'moves'; moves: Move[]; timeoutMs: number }
  /** Stops every follower and deletes their shapes. */
  | { kind: 'unfollow' }
  /** A throughput window: writes, probes, then a fence row the consumer must see. */
  | {
      kind: 'write'
      offeredPerSec: number | null
      maxRows: number | null
      durationMs: number
      drainTimeoutMs: number
      name: string
    }
  /** Waits until the consumer has everything committed so far. */
  | { kind: 'settle'; timeoutMs: number }
  /** Creates shapes (read to up-to-date, kept) with some concurrency. */
  | { kind: 'create'; specs: ShapeSpec[]; concurrency: number }
  /** Drops every HTTP socket. */
  | { kind: 'disconnect' }
  /** Fan-out: `clients` live followers of one shape at `shapeUrl` (the caching proxy). */
  | {
      kind: 'fanout-follow'
      shapeUrl: string
      spec: ShapeSpec
      clients: number
    }
  /** Fan-out: when each follower saw the row whose body is `marker`. */
  | { kind: 'fanout-arrivals'; marker: string; timeoutMs: number }
  | { kind: 'fanout-stop' }
  | { kind: 'close' }

export type Replies = {
  init: null
  engine: null
  writer: null
  latency: LatencyResult
  follow: { ms: number; failed: number; failure: string | null }
  moves: MovesResult
  unfollow: null
  write: WriteResult
  settle: { ms: number | null }
  create: { created: number; failure: string | null }
  disconnect: null
  'fanout-follow': { ms: number; failed: number; failure: string | null }
  'fanout-arrivals': { times: number[]; missing: number }
  'fanout-stop': null
  close: null
}

export type ToLoad =
  | { id: number; command: Command }
  /** The baseline stream (in the engine process) saw a marker row at `at` (epoch ms). */
  | { seen: string; at: number }

export type FromLoad =
  | { id: number; reply: unknown }
  | { id: number; error: string }
  /** Followers' change messages since the last report, for delivery rates. */
  | { received: number }

export class LoadProcess {
  private child: ChildProcess
  private nextId = 1
  private pending = new Map<
    number,
    { resolve: (r: unknown) => void; reject: (e: Error) => void }
  >()
  received = 0

  constructor() {
    this.child = fork(
      fileURLToPath(new URL('./load.ts', import.meta.url)),
      [],
      {
        execArgv: ['--import', 'tsx'],
        // BigInt WAL positions cross the channel as they are.
        serialization: 'advanced',
      },
    )
    this.child.on('message', (message: FromLoad) => {
      if ('received' in message) {
        this.received += message.received
        return
      }
      const waiter = this.pending.get(message.id)
      this.pending.delete(message.id)
      if ('error' in message)
        waiter?.reject(new Error(`load: ${message.error}`))
      else waiter?.resolve(message.reply)
    })
    this.child.on('exit', (code) => {
      for (const waiter of this.pending.values())
        waiter.reject(new Error(`load process exited (${code})`))
      this.pending.clear()
    })
  }

  call<C extends Command>(command: C): Promise<Replies[C['kind']]> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: resolve as (r: unknown) => void,
        reject,
      })
      this.child.send({ id, command } satisfies ToLoad)
    })
  }

  seen(marker: string, at: number): void {
    this.child.send({ seen: marker, at } satisfies ToLoad)
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return
    const exited = new Promise((r) => this.child.once('exit', r))
    await Promise.race([
      this.call({ kind: 'close' }).catch(() => {}),
      new Promise((r) => setTimeout(r, 10_000)),
    ])
    if (this.child.exitCode === null) this.child.kill()
    await exited
  }
}
