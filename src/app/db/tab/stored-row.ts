// A synced table's row as a read of the store gives it to the hooks, typed from the table's
// declaration (shared/synced-tables.ts). A row comes from PGlite, or on a repeat visit from the
// JSON the last screen kept (last-screen.ts), which is why a timestamp may be a Date or text and
// a big integer a BigInt or text: the hooks turn them into what the entities say.
import type {
  Column,
  SyncedTableName,
  SyncedTables,
} from '../../../shared/synced-tables.ts'

type StoredValue = {
  uuid: string
  text: string
  timestamptz: unknown
  // A number, or a BigInt (PGlite, past 2^53) or text (last-screen.ts).
  bigint: number | bigint | string
  integer: number
  'double precision': number
  boolean: boolean
  // The server wrote it; the hook that reads it says what shape it has.
  jsonb: unknown
}

/** A column's value: its type's, or null too when the column is nullable. */
type StoredColumn<C> = C extends Column
  ? C['nullable'] extends true
    ? StoredValue[C['type']] | null
    : StoredValue[C['type']]
  : never

type Columns<T extends SyncedTableName> = SyncedTables[T]['columns']

export type StoredRow<T extends SyncedTableName> = {
  [Name in keyof Columns<T>]: StoredColumn<Columns<T>[Name]>
}
