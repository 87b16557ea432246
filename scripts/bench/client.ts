// A minimal Electric protocol follower over node:http keep-alive sockets (the official client
// is too heavy to run a thousand of in one process): pages to up-to-date, then long-polls.
import http from 'node:http'
import { now } from './workload.ts'

export type ShapeSpec = { table: string; where?: string; params?: string[] }

export type Message = {
  key?: string
  value?: Record<string, string | null>
  headers: Record<string, unknown>
}

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string }

const MAX_CONSECUTIVE_ERRORS = 20

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const header = (headers: http.IncomingHttpHeaders, name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

export class ShapeClient {
  private agent: http.Agent

  /** `maxFreeSockets`: idle sockets kept; past it a socket closes and the next request dials. */
  constructor(
    readonly shapeUrl: string,
    maxFreeSockets = 4096,
  ) {
    this.agent = new http.Agent({
      keepAlive: true,
      maxSockets: Infinity,
      maxFreeSockets,
    })
  }

  request(
    query: URLSearchParams,
    method = 'GET',
    signal?: AbortSignal,
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.shapeUrl}?${query.toString()}`,
        { method, agent: this.agent, signal },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (body += chunk))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
            }),
          )
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end()
    })
  }

  /** Rotates a shape (the app is started with deletion allowed). */
  async deleteShape(handle: string): Promise<void> {
    await this.request(new URLSearchParams({ handle }), 'DELETE')
  }

  /** Drops every socket, idle or not. */
  close(): void {
    this.agent.destroy()
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
  private controller = new AbortController()
  private running: Promise<void> | null = null
  private resolveReady!: () => void
  /** Resolves at the first up-to-date (or when the follower gives up). */
  readonly ready: Promise<void>

  constructor(
    private readonly client: ShapeClient,
    readonly spec: ShapeSpec,
    private readonly options: FollowerOptions,
  ) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve))
  }

  start(): this {
    this.running ??= this.loop().finally(() => this.resolveReady())
    return this
  }

  async stop(): Promise<void> {
    this.controller.abort()
    await this.running
  }

  private async loop(): Promise<void> {
    const { signal } = this.controller
    while (!signal.aborted && performance.now() < this.options.deadline) {
      if (this.upToDate && !this.options.live) return
      if (this.errors >= MAX_CONSECUTIVE_ERRORS) {
        this.failure ??= 'too many errors'
        return
      }
      const query = shapeQuery(this.spec)
      query.set('offset', this.offset)
      if (this.handle && this.offset !== '-1') query.set('handle', this.handle)
      if (this.upToDate) {
        query.set('live', 'true')
        if (this.cursor) query.set('cursor', this.cursor)
      }
      let reply: Reply
      try {
        this.requests++
        reply = await this.client.request(query, 'GET', signal)
      } catch (error) {
        if (signal.aborted) return
        this.errors++
        this.failure = (error as Error).message
        await sleep(50)
        continue
      }
      const at = now()
      if (reply.status === 409) {
        this.handle = header(reply.headers, 'electric-handle') ?? null
        this.offset = '-1'
        this.upToDate = false
        continue
      }
      if (reply.status !== 200) {
        this.errors++
        this.failure = `HTTP ${reply.status}: ${reply.body.slice(0, 200)}`
        if (reply.status === 400) return
        await sleep(reply.status === 503 ? 500 : 50)
        continue
      }
      this.errors = 0
      this.handle = header(reply.headers, 'electric-handle') ?? this.handle
      this.offset = header(reply.headers, 'electric-offset') ?? this.offset
      this.cursor = header(reply.headers, 'electric-cursor') ?? this.cursor
      const messages = JSON.parse(reply.body) as Message[]
      const changes = messages.filter((m) => m.headers.operation !== undefined)
      this.received += changes.length
      if (changes.length > 0) this.options.onChanges?.(changes, at)
      if (
        !this.upToDate &&
        header(reply.headers, 'electric-up-to-date') === ''
      ) {
        this.upToDate = true
        this.resolveReady()
      }
    }
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
