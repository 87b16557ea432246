// The tables shapes are built on, watched for changes that make those shapes stale:
// - columns changed: a relation from replication differs from the columns the shapes were built
//   with (checked once per relation object);
// - renamed: a relation with the same oid arrives under another name;
// - dropped or renamed with no change since: nothing reaches the replication stream, so the
//   catalog is asked now and then (check()).
// Each of these rotates the table's shapes (rotate(key)): clients refetch, and a table that is
// gone then answers a clear 4xx.
import type pg from 'pg'
import type { Relation } from '../replication/types.ts'
import { columnSignature, type TableInfo } from './table-info.ts'

export const tableKey = (schema: string, name: string) => `${schema}.${name}`

export class TableWatch {
  private signatures = new Map<string, string>()
  // oid → the name the table had when its shapes were built.
  private names = new Map<number, string>()
  private verified = new WeakSet<Relation>()
  private checking = false

  constructor(
    private readonly pool: pg.Pool,
    private readonly rotate: (key: string, detail: string) => void,
  ) {}

  /** A shape was built (or reopened) on this table as it is now. */
  remember(info: TableInfo): void {
    const key = tableKey(info.table.schema, info.table.name)
    this.signatures.set(key, info.signature)
    this.names.set(info.oid, key)
  }

  /** Before a relation's changes are routed: rotates its shapes if the table changed. */
  verify(relation: Relation): void {
    if (this.verified.has(relation)) return
    this.verified.add(relation)
    const key = tableKey(relation.schema, relation.name)
    const named = this.names.get(relation.id)
    if (named !== undefined && named !== key) this.forget(relation.id)
    const known = this.signatures.get(key)
    if (known !== undefined && known !== columnSignature(relation.columns)) {
      this.signatures.delete(key)
      this.rotate(key, 'columns changed')
    }
  }

  /** Asks the catalog which tables were dropped or renamed; rotates their shapes. */
  async check(): Promise<void> {
    if (this.checking || this.names.size === 0) return
    this.checking = true
    try {
      const { rows } = await this.pool.query<{ oid: string; name: string }>(
        `select c.oid::text as oid, n.nspname || '.' || c.relname as name
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.oid = any($1::oid[])`,
        [[...this.names.keys()]],
      )
      const now = new Map(rows.map((r) => [Number(r.oid), r.name]))
      for (const [oid, name] of [...this.names])
        if (now.get(oid) !== name) this.forget(oid)
    } catch {
      // The database is unreachable: the supervisor sees to that; check again next time.
    } finally {
      this.checking = false
    }
  }

  private forget(oid: number): void {
    const key = this.names.get(oid)
    if (key === undefined) return
    this.names.delete(oid)
    this.signatures.delete(key)
    this.rotate(key, 'table dropped or renamed')
  }
}
