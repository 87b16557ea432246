// The load process's side of the fan-out phase: N raw long-poll followers of one shape through
// the caching proxy, and when each of them saw each marker row.
import {
  Follower,
  ShapeClient,
  type Message,
  type ShapeSpec,
} from './client.ts'

export const FANOUT_MARK = 'fan-'

export class FanoutClients {
  private client: ShapeClient
  private followers: Follower[] = []
  private arrivals = new Map<string, number[]>()
  private waiters = new Map<string, () => void>()

  /** Each follower keeps its own connection to the proxy between polls. */
  constructor(shapeUrl: string) {
    this.client = new ShapeClient(shapeUrl)
  }

  private onChanges = (changes: Message[], at: number) => {
    for (const c of changes) {
      const body = c.value?.body
      if (!body?.startsWith(FANOUT_MARK)) continue
      const times = this.arrivals.get(body) ?? []
      times.push(at)
      this.arrivals.set(body, times)
      if (times.length === this.followers.length) this.waiters.get(body)?.()
    }
  }

  /** Starts `count` live followers of one shape; resolves when all are up to date. */
  async start(spec: ShapeSpec, count: number, deadline: number) {
    const started = performance.now()
    this.followers = Array.from({ length: count }, () =>
      new Follower(this.client, spec, {
        live: true,
        onChanges: this.onChanges,
        deadline,
      }).start(),
    )
    await Promise.all(this.followers.map((f) => f.ready))
    const failed = this.followers.filter((f) => !f.upToDate)
    return {
      ms: performance.now() - started,
      failed: failed.length,
      failure: failed[0]?.failure ?? null,
    }
  }

  /** When each follower saw `marker` (epoch ms, `now()`); missing ones after the timeout. */
  async arrivalsOf(marker: string, timeoutMs: number) {
    const done = new Promise<void>((resolve) => {
      if ((this.arrivals.get(marker)?.length ?? 0) >= this.followers.length)
        return resolve()
      this.waiters.set(marker, resolve)
      setTimeout(resolve, timeoutMs)
    })
    await done
    this.waiters.delete(marker)
    const times = this.arrivals.get(marker) ?? []
    this.arrivals.delete(marker)
    return { times, missing: this.followers.length - times.length }
  }

  async stop() {
    await Promise.all(this.followers.map((f) => f.stop()))
    this.followers = []
  }
}
