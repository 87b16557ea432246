// The rows the benchmark measures against, written straight into the control plane as the
// engine or an admin would (see e2e/live-sync.spec.ts).
import type pg from 'pg'

/** One source for the signed-in user's team; returns its id. */
export async function seedSource(
  db: pg.Pool,
  email: string,
  name: string,
): Promise<string> {
  // The benchmark gives the source a new state per sample (`s-17`), and the schema allows
  // only the states the product defines. This Postgres is the benchmark's own and gone after the run.
  // Dropped before any page syncs, so no client sees the table change under it.
  const { rows: checks } = await db.query<{ name: string }>(
    `select conname as name from pg_constraint
      where conrelid = 'sources'::regclass and contype = 'c'
        and pg_get_constraintdef(oid) like '%state%'`,
  )
  for (const { name: check } of checks)
    await db.query(`alter table sources drop constraint "${check}"`)
  const { rows } = await db.query<{ id: string }>(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     select team_id, $2, 'eu-west-1', 'postgres://app@db.example.com/orders', 'sec_bench_web'
       from users where email = $1
     returning id`,
    [email, name],
  )
  const id = rows[0]?.id
  if (!id) throw new Error(`no user ${email} to own the source`)
  return id
}
