// Which sources this server runs: a session advisory lock per source, held on one dedicated
// control-plane connection, so several servers sharing a control plane never stream the same
// slot. When that connection drops every lock is gone with it, and the runtime lets go of all.
// With a `holder`, each claim also records where this server is reached and which backend holds
// its lock (source_holders), so other servers forward the source's requests here; letting go
// removes the record. `heartbeat()` says this server still answers; `endStale()` ends the
// claims backend of a server of the region that has stopped saying so (a hung process keeps
// its connection, and so its locks, for ever), so its sources are claimed at the next pass.
import type pg from 'pg'
import type { Db } from '../platform/db/database.ts'
import {
  clearHolder,
  clearHolders,
  endStaleHolders,
  heartbeat,
  recordHolder,
  type Holder,
} from './source-holders.ts'

// A fixed prefix keeps these keys apart from any other advisory lock on the control plane.
const LOCK_KEY = `pg_try_advisory_lock(hashtextextended('sluice-source:' || $1, 0))`
const UNLOCK_KEY = `pg_advisory_unlock(hashtextextended('sluice-source:' || $1, 0))`

export class SourceClaims {
  private client: pg.PoolClient | null = null
  private connecting: Promise<pg.PoolClient> | null = null
  readonly held = new Set<string>()

  constructor(
    private readonly db: Db,
    /** Called once when the connection (and so every lock) is lost. */
    private readonly onLost: () => void,
    private readonly holder?: Holder,
  ) {}

  /** Takes the source's lock unless another server holds it; true when this server does. */
  async claim(sourceId: string): Promise<boolean> {
    if (this.held.has(sourceId)) return true
    const client = await this.connection()
    const { rows } = await client.query<{ ok: boolean }>(
      `select ${LOCK_KEY} as ok`,
      [sourceId],
    )
    // Locks are re-entrant per session: take each at most once, so one unlock releases it.
    if (rows[0]?.ok && this.client === client) {
      this.held.add(sourceId)
      if (this.holder) await recordHolder(client, sourceId, this.holder)
    }
    return this.held.has(sourceId)
  }

  /** Refreshes the heartbeat every `ms`; the timer, for the caller to clear. */
  beatEvery(ms: number, onError: (error: Error) => void): NodeJS.Timeout {
    return setInterval(() => void this.heartbeat().catch(onError), ms)
  }

  /** Refreshes this server's heartbeat on its claims (a no-op holding none). */
  async heartbeat(): Promise<void> {
    const client = this.client
    if (!this.holder || !client || this.held.size === 0) return
    await heartbeat(client, this.holder.instanceId)
  }

  /**
   * Ends the claims backend of other servers whose heartbeat on a source of `regions` is older
   * than `staleMs`: their locks are free for the next claim. The servers ended.
   */
  async endStale(
    regions: readonly string[] | undefined,
    staleMs: number,
  ): Promise<string[]> {
    if (!this.holder) return []
    return endStaleHolders(
      this.db,
      this.holder.instanceId,
      regions ?? null,
      staleMs,
    )
  }

  async release(sourceId: string): Promise<void> {
    if (!this.held.delete(sourceId)) return
    const client = this.client
    if (this.holder)
      await clearHolder(
        client ?? this.db,
        sourceId,
        this.holder.instanceId,
      ).catch(() => {})
    await client?.query(`select ${UNLOCK_KEY}`, [sourceId]).catch(() => {})
  }

  /** Releases every lock by ending the session, first removing this server's records. */
  async close(): Promise<void> {
    const client = this.client
    this.client = null
    this.held.clear()
    if (this.holder && client)
      await clearHolders(client, this.holder.instanceId).catch(() => {})
    client?.release(true)
  }

  private connection(): Promise<pg.PoolClient> {
    if (this.client) return Promise.resolve(this.client)
    this.connecting ??= this.db
      .connect()
      .then((client) => {
        const lost = () => {
          if (this.client !== client) return
          this.client = null
          this.held.clear()
          client.release(true)
          this.onLost()
        }
        client.on('error', lost)
        client.on('end', lost)
        this.client = client
        return client
      })
      .finally(() => (this.connecting = null))
    return this.connecting
  }
}
