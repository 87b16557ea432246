// The numbered 'To fix these issues' steps, naming the real user and database so the
// SQL can be pasted as is. Only steps for checks that failed (not unknown) are listed.
import type { DatabaseValidation } from '../../../shared/validation.ts'
import { checkStatuses } from './check-rows.ts'

export type FixStep = { number: number; text: string; sql?: string }
export type Names = { user: string; database: string }

// Shown when neither the server nor the typed URL names them; the user fills them in.
const USER_PLACEHOLDER = '<user>'
const DATABASE_PLACEHOLDER = '<database>'

/** A Postgres identifier as SQL: bare when it would survive unquoted, else double-quoted. */
export function quoteIdentifier(name: string): string {
  if (name === USER_PLACEHOLDER || name === DATABASE_PLACEHOLDER) return name
  return /^[a-z_][a-z0-9_$]*$/.test(name)
    ? name
    : `"${name.replaceAll('"', '""')}"`
}

/** User and database of a typed Postgres URL; libpq's default database is the user's name. */
export function namesFromUrl(url: string): Partial<Names> {
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    return {}
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) return {}
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s)
    } catch {
      return s
    }
  }
  const user = decode(parsed.username) || undefined
  const database = decode(parsed.pathname.replace(/^\//, '')) || user
  return { user, database }
}

/** The server's diagnostics win: they name what it actually connected as. */
export function namesFor(v: DatabaseValidation, typedUrl: string): Names {
  const typed = namesFromUrl(typedUrl)
  return {
    user: v.diagnostics?.user || typed.user || USER_PLACEHOLDER,
    database: v.diagnostics?.database || typed.database || DATABASE_PLACEHOLDER,
  }
}

export function fixSteps(v: DatabaseValidation, names: Names): FixStep[] {
  const status = checkStatuses(v)
  const user = quoteIdentifier(names.user)
  const database = quoteIdentifier(names.database)
  const steps: Omit<FixStep, 'number'>[] = []
  if (status.replication === 'error')
    steps.push({
      text: 'Give the user the REPLICATION attribute:',
      sql: `ALTER USER ${user} WITH REPLICATION;`,
    })
  if (status.create === 'error')
    steps.push({
      text: 'Let the user create the publication and its objects in the database:',
      sql: `GRANT CREATE ON DATABASE ${database} TO ${user};`,
    })
  if (status.wal === 'error')
    steps.push({
      text: 'Set wal_level = logical (in postgresql.conf, or your provider\u2019s settings) and restart the server:',
      sql: 'ALTER SYSTEM SET wal_level = logical;',
    })
  return steps.map((step, i) => ({ ...step, number: i + 1 }))
}
