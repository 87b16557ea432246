// Several real server processes on one control-plane database: each with its own
// data dir, port, regions and instance id, sharing the root secret (so each can decrypt any
// source's password) and the internal secret; plus a signed-in user and real source databases.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { adminQuery, uniqueName, type TestDatabase } from './database.ts'
import { startServer, waitUntilUp, type Server } from './server-process.ts'

const SHARED_SECRET = `servers-test-${randomBytes(12).toString('hex')}`
export const INTERNAL_SECRET = `internal-${randomBytes(16).toString('hex')}`

export type Node = Server & { base: string; instanceId: string }

export async function startNode(
  control: TestDatabase,
  root: string,
  instanceId: string,
  env: Record<string, string> = {},
): Promise<Node> {
  const port = await freePort()
  const base = `http://localhost:${port}`
  const server = startServer({
    PORT: String(port),
    DATA_DIR: join(root, instanceId),
    DATABASE_URL: control.url,
    SLUICE_SECRET: SHARED_SECRET,
    SLUICE_INTERNAL_SECRET: INTERNAL_SECRET,
    SLUICE_INSTANCE_ID: instanceId,
    ...env,
  })
  await waitUntilUp(server, `${base}/api/public/health`)
  return { ...server, base, instanceId }
}

/** Stops the process (SIGTERM) and waits for its exit. */
export async function stopNode(node: Node | undefined) {
  if (!node || node.child.exitCode !== null || node.child.signalCode) return
  node.child.kill('SIGTERM')
  await node.exited
}

/** Signs in locally at `base`: the session cookie and the user's own team. */
export async function signIn(base: string, email: string) {
  const login = await fetch(`${base}/api/public/auth/local/login`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Operator', email }),
  })
  if (login.status !== 200) throw new Error(`sign-in: ${login.status}`)
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const me = (await (
    await fetch(`${base}/api/v1/users/me`, { headers: { cookie } })
  ).json()) as { team_id: string }
  return { cookie, teamId: me.team_id }
}

/** A database its own replication role owns, on the run's Postgres; `drop()` removes both. */
export async function sourceDatabase() {
  const role = uniqueName('srv_role')
  const name = uniqueName('srv_db')
  const password = `Pw-${randomBytes(8).toString('hex')}`
  await adminQuery(
    `create role ${role} login replication password '${password}'`,
  )
  await adminQuery(`create database ${name} owner ${role}`)
  const url = new URL(
    `postgres://127.0.0.1:${new URL(inject('pgAdminUrl')).port}/${name}`,
  )
  url.username = role
  url.password = password
  // As the owner, so its tables can go into the publication.
  const owner = new pg.Client({ connectionString: url.toString() })
  await owner.connect()
  return {
    name,
    url: url.toString(),
    query: (sql: string) => owner.query(sql),
    /** For truthOf (tests/faults/support.ts). */
    client: owner,
    async drop() {
      await owner.end()
      await adminQuery(`drop database if exists ${name} with (force)`)
      await adminQuery(`drop role if exists ${role}`)
    },
  }
}

/** PUT /api/v1/sources at `base`: the new source's id and secret. */
export async function createSource(
  base: string,
  user: { cookie: string; teamId: string },
  region: string,
  databaseUrl: string,
) {
  const created = await fetch(`${base}/api/v1/sources`, {
    method: 'PUT',
    headers: {
      cookie: user.cookie,
      origin: base,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      region,
      team_id: user.teamId,
      database_url: databaseUrl,
    }),
  })
  if (created.status !== 201)
    throw new Error(`create: ${created.status} ${await created.text()}`)
  return (await created.json()) as { id: string; source_secret: string }
}

/**
 * Drops the replication slots stopped servers left in these databases: the run's Postgres has
 * a few slots for every test file, and a database with slots cannot be dropped.
 */
export async function dropLeftSlots(databaseNames: string[]) {
  const names = databaseNames.map((name) => `'${name}'`).join(', ')
  await adminQuery(
    `select pg_drop_replication_slot(slot_name) from pg_replication_slots
      where database in (${names}) and not active`,
  )
}

/** The source's state as the control plane has it; undefined once its row is gone. */
export async function stateOf(control: TestDatabase, sourceId: string) {
  const { rows } = await control.db.query<{ state: string }>(
    'select state from sources where id = $1',
    [sourceId],
  )
  return rows[0]?.state
}

/** The instance its source_holders row names, if any. */
export async function holderOf(control: TestDatabase, sourceId: string) {
  const { rows } = await control.db.query<{ instance_id: string }>(
    'select instance_id from source_holders where source_id = $1',
    [sourceId],
  )
  return rows[0]?.instance_id
}
