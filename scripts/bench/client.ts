// A minimal Electric protocol follower, each over its own keep-alive connection (the official
// client is too heavy to run a thousand of in one process): pages to up-to-date, then long-polls.
import { HttpConnection, type Reply } from './http-connection.ts'
import { now } from './workload.ts'

export type ShapeSpec = { table: string; where?: string; params?: string[] }

export type Message = {
  key?: string
  value?: Record<string, string | null>
  headers: Record<string, unknown>
}

const MAX_CONSECUTIVE_ERRORS = 20

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Where followers connect: the engine, or the caching proxy in front of it. */
export class ShapeClient {
  readonly path: string
  private readonly host: string
  private readonly port: number

  constructor(readonly shapeUrl: string) {
    const url = new URL(shapeUrl)
    this.host = url.hostname
    this.port = Number(url.port || 80)
    this.path = url.pathname
  }

  /** A connection of its own for one follower. */
  connection(): HttpConnection {
    return new HttpConnection(this.host, this.port)
  }

  /** Rotates a shape (the app is started with deletion allowed). */
  async deleteShape(handle: string): Promise<void> {
    const url = `${this.shapeUrl}?${new URLSearchParams({ handle }).toString()}`
    const response = await fetch(url, { method: 'DELETE' })
    await response.body?.cancel()
  }
}

function shapeQuery(spec: ShapeSpec): URLSearchParams {
  const query = new URLSearchParams({ table: spec.table })
  if (spec.where) query.set('where', spec.where)
  spec.params?.forEach((p, i) => query.set(`params[${i + 1}]`, p))
  return query
}

export type FollowerOptions = {
  /** Keep long-polling once up to date (else stop there). */
  live: boolean
  /** Called with the change messages of each response, and when it arrived. */
  onChanges?: (changes: Message[], at: number) => void
  /**
   * Called with every message of each response (control messages and events too), whether it
   * ended up to date, and when it arrived.
   */
  onReply?: (messages: Message[], upToDate: boolean, at: number) => void
  /** No new request starts after this time (performance.now()). */
  deadline: number
}

export class Follower {
  handle: string | null = null
  offset = '-1'
  cursor: string | null = null
  upToDate = false
  received = 0
  requests = 0
  failure: string | null = null
  private errors = 0
  private stopped = false
  private running: Promise<void> | null = null
  private resolveReady!: () => void
  private readonly connection: HttpConnection
  /** The shape's path and query (table, where, params), built once. */
  private readonly base: string
  /** Resolves at the first up-to-date (or when the follower gives up). */
  readonly ready: Promise<void>

  constructor(
    client: ShapeClient,
    readonly spec: ShapeSpec,
    private readonly options: FollowerOptions,
  ) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve))
    this.connection = client.connection()
    this.base = `${client.path}?${shapeQuery(spec).toString()}`
  }

  start(): this {
    this.running ??= this.loop().finally(() => this.resolveReady())
    return this
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.connection.close()
    await this.running
  }

  private async loop(): Promise<void> {
    while (!this.stopped && performance.now() < this.options.deadline) {
      if (this.upToDate && !this.options.live) break
      if (this.errors >= MAX_CONSECUTIVE_ERRORS) {
        this.failure ??= 'too many errors'
        break
      }
      let path = `${this.base}&offset=${encodeURIComponent(this.offset)}`
      if (this.handle && this.offset !== '-1')
        path += `&handle=${encodeURIComponent(this.handle)}`
      if (this.upToDate) {
        path += '&live=true'
        if (this.cursor) path += `&cursor=${encodeURIComponent(this.cursor)}`
      }
      let reply: Reply
      try {
        this.requests++
        reply = await this.connection.get(path)
      } catch (error) {
        if (this.stopped) break
        this.errors++
        this.failure = (error as Error).message
        await sleep(50)
        continue
      }
      const at = now()
      const headers = reply.headers
      if (reply.status === 409) {
        this.handle = headers['electric-handle'] ?? null
        this.offset = '-1'
        this.upToDate = false
        continue
      }
      if (reply.status !== 200) {
        this.errors++
        this.failure = `HTTP ${reply.status}: ${reply.body.slice(0, 200)}`
        if (reply.status === 400) break
        await sleep(reply.status === 503 ? 500 : 50)
        continue
      }
      this.errors = 0
      this.handle = headers['electric-handle'] ?? this.handle
      this.offset = headers['electric-offset'] ?? this.offset
      this.cursor = headers['electric-cursor'] ?? this.cursor
      const messages = JSON.parse(reply.body) as Message[]
      const changes = messages.filter((m) => m.headers.operation !== undefined)
      this.received += changes.length
      if (changes.length > 0) this.options.onChanges?.(changes, at)
      this.options.onReply?.(
        messages,
        headers['electric-up-to-date'] === '',
        at,
      )
      if (!this.upToDate && headers['electric-up-to-date'] === '') {
        this.upToDate = true
        this.resolveReady()
      }
    }
    // A follower that ends by itself (non-live, out of time) lets its socket go.
    this.connection.close()
  }
}

/** Reads a shape from offset -1 to up-to-date; what the client got and how long it took. */
export async function readShape(
  client: ShapeClient,
  spec: ShapeSpec,
  deadline: number,
): Promise<{
  rows: number
  ms: number
  requests: number
  handle: string | null
  failure: string | null
}> {
  const started = performance.now()
  const follower = new Follower(client, spec, { live: false, deadline })
  await follower.start().ready
  await follower.stop()
  return {
    rows: follower.received,
    ms: performance.now() - started,
    requests: follower.requests,
    handle: follower.handle,
    failure: follower.upToDate ? null : (follower.failure ?? 'deadline'),
  }
}
