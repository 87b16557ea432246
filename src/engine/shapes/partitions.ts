// Shapes on a partitioned table. Its rows live in its partitions, and the publication names
// each change by the partition it happened in (publish_via_partition_root = false, so that a
// shape on one partition sees its own changes): this maps each partition to the partitioned
// tables above it that have shapes, so those shapes get its changes too.
//
// Attaching or detaching a partition moves rows into or out of the partitioned table with no
// change in the WAL: a partitioned table's shapes are rotated (clients refetch) when its
// partitions are no longer those it had when they were built, noticed either at the first
// change of a partition not seen before or by the periodic catalog check.
import type pg from 'pg'
import type { Relation } from '../replication/types.ts'
import { tableKey } from './table-watch.ts'

const NONE: readonly string[] = []

type Watched = { oid: number; partitions: Set<number> }

export class PartitionMap {
  // Partitioned tables with shapes, by table key.
  private roots = new Map<string, Watched>()
  // A partition's oid → the keys of the watched partitioned tables above it.
  private above = new Map<number, string[]>()
  // Relations asked about that belong to no watched partitioned table.
  private outside = new Set<number>()
  private checking = false

  constructor(
    private readonly pool: pg.Pool,
    private readonly rotate: (key: string) => void,
  ) {}

  /** A shape is being built on partitioned table `oid`: its partitions as they are now. */
  async watch(key: string, oid: number): Promise<void> {
    const partitions = await this.partitionsOf(oid)
    this.unwatch(key)
    this.roots.set(key, { oid, partitions })
    for (const partition of partitions) {
      const keys = this.above.get(partition) ?? []
      this.above.set(partition, [...keys, key])
      this.outside.delete(partition)
    }
  }

  /** The watched partitioned tables a change to `relation` also belongs to. */
  ancestors(relation: Relation): readonly string[] {
    return this.roots.size === 0 ? NONE : (this.above.get(relation.id) ?? NONE)
  }

  /**
   * Before a relation's changes are routed: one the map does not know yet may be a partition
   * attached since a watched table's shapes were built. Null when there is nothing to ask.
   */
  learn(relation: Relation): Promise<void> | null {
    if (this.roots.size === 0) return null
    if (this.above.has(relation.id) || this.outside.has(relation.id))
      return null
    return this.ask(relation.id)
  }

  /**
   * Every watched table whose partitions changed (attached, detached, created, dropped) is
   * rotated; tables with no shape left (`hasShapes`) stop being watched.
   */
  async check(hasShapes: (key: string) => boolean): Promise<void> {
    if (this.checking) return
    this.checking = true
    try {
      await this.checkEach(hasShapes)
    } finally {
      this.checking = false
    }
  }

  private async checkEach(hasShapes: (key: string) => boolean): Promise<void> {
    for (const [key, watched] of [...this.roots]) {
      if (!hasShapes(key)) {
        this.unwatch(key)
        continue
      }
      const now = await this.partitionsOf(watched.oid)
      if (this.roots.get(key) !== watched) continue
      const same =
        now.size === watched.partitions.size &&
        [...now].every((p) => watched.partitions.has(p))
      if (!same) this.moved(key)
    }
    this.outside.clear()
  }

  private async ask(oid: number): Promise<void> {
    const { rows } = await this.pool.query<{ schema: string; name: string }>(
      `select n.nspname as schema, c.relname as name
         from pg_partition_ancestors($1::oid) a
         join pg_class c on c.oid = a.relid
         join pg_namespace n on n.oid = c.relnamespace
        where a.relid <> $1::oid`,
      [oid],
    )
    let watchedAbove = false
    for (const row of rows) {
      const key = tableKey(row.schema, row.name)
      if (!this.roots.has(key)) continue
      watchedAbove = true
      // Not among its partitions when its shapes were built: attached since.
      this.moved(key)
    }
    if (!watchedAbove) this.outside.add(oid)
  }

  /** The table's rows changed with no change in the WAL: its shapes start over. */
  private moved(key: string): void {
    this.unwatch(key)
    this.rotate(key)
  }

  private unwatch(key: string): void {
    const watched = this.roots.get(key)
    if (!watched) return
    this.roots.delete(key)
    for (const partition of watched.partitions) {
      const keys = this.above.get(partition)?.filter((k) => k !== key) ?? []
      if (keys.length > 0) this.above.set(partition, keys)
      else this.above.delete(partition)
    }
  }

  // Every partition below the table, at every level (sub-partitioned tables included).
  private async partitionsOf(oid: number): Promise<Set<number>> {
    const { rows } = await this.pool.query<{ oid: string }>(
      `select relid::oid::text as oid from pg_partition_tree($1::oid) where level > 0`,
      [oid],
    )
    return new Set(rows.map((r) => Number(r.oid)))
  }
}
