// What the store's worker syncs (store-worker.ts): the owner's user row and teams; each team's
// sources and members; the setup links and alert destinations and delivery log of teams a tab
// shows now; the event logs and live shapes of sources a tab shows now (recently shown ones
// keep their rows, not live). Shapes start and stop as those lists change; what leaves them
// for good (a team left, a source deleted or no longer followed) leaves the store too, and a
// change of owner empties the store before the next user's data arrives.
// It runs in the worker that holds the database, so every statement is a call, not a message.
// Every shape asks through the shared live-sync fetch (lib/live-sync.ts): one backoff,
// and one gate that holds all of them while the server is unreachable.
import type { PGliteInterface } from '@electric-sql/pglite'
import type { LiveNamespace } from '@electric-sql/pglite/live'
import type { PGliteWithSync } from '@electric-sql/pglite-sync'
import type { ChangeMessage, Row } from '@electric-sql/client'
import { liveShape, liveSyncFetch } from '../../lib/live-sync.ts'
import { announceSessionEnded } from '../../lib/session-signal.ts'
import { afterCommits } from './after-commits.ts'
import { eventLogFetch, REMOVAL_HOLD_MS } from './event-log-fetch.ts'
import { liveShapesFetch, sourceInStore } from './live-shapes-fetch.ts'
import {
  keepPrefetchedFor,
  prefetchedOr,
  prefetchedTeamIds,
} from './shape-prefetch.ts'
import { whenTrue } from '../shared/await-txid.ts'
import {
  onOpenPagesChanged,
  openPages,
  type PageKind,
} from '../shared/open-pages.ts'
import { syncedOnce } from '../shared/synced-once.ts'
import { shapePath } from '../../../shared/api-routes.ts'
import {
  syncedTableNames,
  syncedTables,
  type SyncedTableName,
} from '../../../shared/synced-tables.ts'

export type SyncedPg = PGliteInterface & {
  live: LiveNamespace
  electric: PGliteWithSync['sync']
}
type Subscription = { unsubscribe(): void }
type Shapes = Parameters<
  SyncedPg['electric']['syncShapesToTables']
>[0]['shapes']

/**
 * `sessionRefused`: the server refused the owner's session and the store is nobody's now; the
 * tab forgets it kept a store (its hints live in localStorage, which a worker cannot reach).
 * `screenShown`: the tab's first screen is up (a first visit's lists wait for it, below).
 * `synced`: the owner's data has all landed once (synced-once.ts), said as soon as it has.
 * Answers how to stop it (a sign-out closing the store): every shape ends, nothing more is
 * written, and the promise resolves once the step in progress is done.
 */
export function startSync(
  pg: SyncedPg,
  origin: string,
  sessionRefused: () => void,
  screenShown: Promise<void>,
  synced: (userId: string) => void,
): () => Promise<void> {
  const url = (path: string) => new URL(path, origin).toString()
  // The owner's and their teams' shapes: a first visit asked for their snapshots already.
  const ownShape = (path: string) => ({
    ...liveShape(url(path)),
    fetchClient: prefetchedOr(liveSyncFetch),
  })
  const running = new Map<string, Subscription>()
  // Stopped for good (the store is closing): no shape starts again.
  let ended = false

  const follow = async (key: string, shapes: Shapes) => {
    if (ended || running.has(key)) return
    // Stopped by this sync (no longer followed) before or after its subscription exists.
    let stopped = false
    let sub: Subscription | null = null
    running.set(key, {
      unsubscribe() {
        stopped = true
        sub?.unsubscribe()
      },
    })
    // 404 or 403: the shape is no longer ours (a team left, a source deleted while this
    // browser was away). Asking again would get the same answer: the sync ends, and its rows
    // and resume point go, whether or not the removal has reached this store's lists yet. A
    // source deleted while its log is followed never gets here (event-log-fetch.ts). Anything
    // else is left to the client's own retries.
    // 401: the session ended (a logout, expiry, another user's sign-in) while this shape was
    // open; the store is nobody's and every tab goes to the landing page.
    // A stream this sync stopped ends with the abort that stopped it: no error to report.
    const onError = (error: Error) => {
      if (stopped) return
      const status = (error as { status?: number }).status
      if (status === 401) serial(refuseSession)
      else if (status === 404 || status === 403)
        serial(() => forget(key, shapes))
      else throw error
      unfollow(key)
    }
    // Each answer waits for the commits before it, so a commit saves its own answer's offset
    // (after-commits.ts).
    const withHandler = Object.fromEntries(
      Object.entries(shapes).map(([name, s]) => [
        name,
        {
          ...s,
          shape: {
            ...s.shape,
            onError,
            fetchClient: afterCommits(pg, s.shape.fetchClient ?? liveSyncFetch),
          },
        },
      ]),
    ) as Shapes
    sub = await pg.electric.syncShapesToTables({
      key,
      shapes: withHandler,
      onInitialSync: () => void reportIfSynced(),
    })
    if (stopped) sub.unsubscribe()
  }
  const unfollow = (key: string) => {
    running.get(key)?.unsubscribe()
    running.delete(key)
  }
  /** A shape refused for good: its rows leave the store, and it resumes from nothing. */
  async function forget(key: string, shapes: Shapes) {
    if (running.has(key)) return
    await pg.transaction(async (tx) => {
      for (const shape of Object.values(shapes)) await shape.onMustRefetch?.(tx)
    })
    await pg.electric.deleteSubscription(key)
  }
  // Rows of one team or source are removed on refetch (by the table's scoping column,
  // shared/synced-tables.ts); others sharing the table stay.
  const scoped = (table: SyncedTableName, value: string) => ({
    table,
    // Each row keeps the txids of its last change, for writes waiting on them (await-txid.ts).
    mapColumns: (message: ChangeMessage<Row>) => ({
      ...message.value,
      synced_txids: message.headers.txids ?? null,
    }),
    primaryKey: [...syncedTables[table].primaryKey],
    onMustRefetch: async (tx: {
      query(sql: string, params: unknown[]): Promise<unknown>
    }) => {
      await tx.query(
        `delete from ${table} where ${syncedTables[table].scope} = $1`,
        [value],
      )
    },
  })

  // pglite-sync makes its metadata table on first use; before that nothing was synced.
  async function syncedKeys(): Promise<string[]> {
    const { rows } = await pg.query<{ t: string | null }>(
      `select to_regclass('electric.subscriptions_metadata')::text as t`,
    )
    if (!rows[0]?.t) return []
    const keys = await pg.query<{ key: string }>(
      'select key from electric.subscriptions_metadata',
    )
    return keys.rows.map((r) => r.key)
  }

  // Whose data the store holds from an earlier visit: the key of their user subscription.
  async function previousOwner(): Promise<string | null> {
    const user = (await syncedKeys()).find((key) => key.startsWith('user:'))
    return user ? user.slice('user:'.length) : null
  }

  async function refuseSession() {
    const refused = owner
    if (!refused) return
    // Only if still theirs: a new user's sign-in may have claimed the store already.
    const { affectedRows } = await pg.query(
      'delete from local_owner where user_id = $1',
      [refused],
    )
    if (affectedRows) sessionRefused()
    announceSessionEnded({ userId: refused })
  }

  // Checked as each list lands: a first visit's tab waits for this (first-sync.ts), and hears
  // it at once rather than at its next check.
  let reported: string | null = null
  async function reportIfSynced() {
    const current = owner
    if (!current || reported === current) return
    const read = <T>(sql: string, params: unknown[]) => pg.query<T>(sql, params)
    if (!(await syncedOnce(read, current).catch(() => false))) return
    reported = current
    synced(current)
  }

  // undefined until the first call has looked at what an earlier visit left.
  let owner: string | null | undefined
  async function switchOwner(next: string | null) {
    if (owner === undefined) owner = await previousOwner()
    keepPrefetchedFor(next)
    if (next !== owner) {
      for (const key of [...running.keys()]) unfollow(key)
      await pg.transaction(async (tx) => {
        for (const table of syncedTableNames)
          await tx.exec(`delete from ${table}`)
      })
      for (const key of await syncedKeys())
        await pg.electric.deleteSubscription(key)
      owner = next
    }
    if (!next) return
    await follow(`user:${next}`, {
      users: {
        shape: ownShape(shapePath('users')),
        ...scoped('users', next),
      },
    })
    await follow(`teams:${next}`, {
      user_teams: {
        shape: ownShape(shapePath('user_teams')),
        ...scoped('user_teams', next),
      },
    })
  }

  // Follows each id's shapes under `prefix:id:table` and stops those no longer listed. Each
  // shape is a subscription of its own: in one subscription pglite-sync holds a change until
  // every other shape has caught up to it, a round trip more on every change. An id listed but
  // not `kept` live (its page not shown) keeps its rows; one no longer `kept` at all (a team
  // the user left, a source deleted or no longer followed) has its rows and resume point
  // removed, running or not.
  async function followEach(
    prefix: string,
    ids: string[],
    shapesOf: (id: string) => Shapes,
    kept: string[] = ids,
  ) {
    const wanted = new Map<string, Shapes>()
    for (const id of ids)
      for (const [table, shape] of Object.entries(shapesOf(id)))
        wanted.set(`${prefix}:${id}:${table}`, { [table]: shape })
    for (const key of running.keys())
      if (key.startsWith(`${prefix}:`) && !wanted.has(key)) unfollow(key)
    const keep = new Set(kept)
    for (const key of await syncedKeys()) {
      const [keyPrefix, id = '', table = ''] = key.split(':')
      const shape = shapesOf(id)[table]
      if (keyPrefix === prefix && !keep.has(id) && shape)
        await forget(key, { [table]: shape })
    }
    for (const [key, shapes] of wanted) await follow(key, shapes)
  }

  const followTeams = (teamIds: string[]) =>
    followEach('team', teamIds, (teamId) => ({
      sources: {
        shape: ownShape(shapePath('sources', teamId)),
        ...scoped('sources', teamId),
      },
      team_members: {
        shape: ownShape(shapePath('team_members', teamId)),
        ...scoped('team_members', teamId),
      },
    }))

  // Followed teams and sources (their lists below), of which only those whose page some tab
  // shows are kept live; the others keep their rows and resume where they stopped when their
  // page opens (open-pages.ts).
  // null until their live query has first answered: a page opened before then must not read
  // an empty list as "nothing followed", whose rows would go (followEach).
  let followedTeams: string[] | null = null
  let followedSources: string[] | null = null
  async function shown(kind: PageKind, ids: string[]): Promise<string[]> {
    const open = await openPages()
    return open ? ids.filter((id) => open[kind].has(id)) : ids
  }
  async function followTeamPages(teamIds: string[]) {
    followedTeams = teamIds
    await followEach(
      'team-page',
      await shown('team', teamIds),
      teamPageShapes,
      teamIds,
    )
  }
  async function followSources(sourceIds: string[]) {
    followedSources = sourceIds
    await followEach(
      'source',
      await shown('source', sourceIds),
      sourceShapes,
      sourceIds,
    )
  }

  const teamPageShapes = (teamId: string): Shapes => ({
    source_setup_forms: {
      shape: liveShape(url(shapePath('source_setup_forms', teamId))),
      ...scoped('source_setup_forms', teamId),
    },
    alert_destinations: {
      shape: liveShape(url(shapePath('alert_destinations', teamId))),
      ...scoped('alert_destinations', teamId),
    },
    alert_delivery_attempts: {
      shape: liveShape(url(shapePath('alert_delivery_attempts', teamId))),
      ...scoped('alert_delivery_attempts', teamId),
    },
  })

  const sourceShapes = (sourceId: string): Shapes => ({
    source_event_logs: {
      shape: {
        ...liveShape(url(shapePath('source_event_logs', sourceId))),
        // Never asks for the log of a source the server has dropped (event-log-fetch.ts).
        fetchClient: eventLogFetch(liveSyncFetch, (txid) =>
          removalOutcome(sourceId, txid),
        ),
      },
      ...scoped('source_event_logs', sourceId),
    },
    source_shapes: figures('source_shapes', sourceId),
    source_metrics: figures('source_metrics', sourceId),
    source_shape_metrics: figures('source_shape_metrics', sourceId),
    source_invalidations: figures('source_invalidations', sourceId),
  })

  // A source's live shapes and figures: rows that leave all the time (shapes rotated, points
  // pruned), so their streams ask the store about the source first (live-shapes-fetch.ts).
  const figures = (
    table:
      | 'source_shapes'
      | 'source_metrics'
      | 'source_shape_metrics'
      | 'source_invalidations',
    sourceId: string,
  ) => ({
    shape: {
      ...liveShape(url(shapePath(table, sourceId))),
      fetchClient: liveShapesFetch(liveSyncFetch, sourceInStore(pg, sourceId)),
    },
    ...scoped(table, sourceId),
  })

  // A write to the source row newer than its delete request: the removal failed. Its success
  // (the row gone) ends the stream through the list above instead.
  const removalOutcome = (sourceId: string, txid: number | null) =>
    whenTrue(
      pg,
      `select exists (select 1 from sources, unnest(synced_txids) t
                       where id = $1 and t > $2) as ok`,
      [sourceId, txid ?? Number.MAX_SAFE_INTEGER],
      REMOVAL_HOLD_MS,
    )

  // Each list is a live query; its callbacks run one at a time in order of arrival.
  let queue = Promise.resolve()
  const serial = (fn: () => Promise<void>) => {
    if (ended) return
    queue = queue
      .then(fn)
      .catch((error: unknown) => console.warn('sync', error))
  }
  // The owner's shapes start first, from a plain read: each live query's set-up is a dozen
  // statements, and on a first visit (Postgres's code not yet optimized) those of all three
  // would run before the first request left.
  serial(async () => {
    const { rows } = await pg.query<{ user_id: string }>(
      'select user_id from local_owner',
    )
    await switchOwner(rows[0]?.user_id ?? null)
    // A first visit's teams, as prefetched: their lists start now, not once the team list has
    // landed and its live query has answered. The live queries, whose set-up took a third of
    // a second of this worker on a first visit (while the first screen's reads waited), then
    // start once that screen shows, and confirm the list or correct it.
    const prefetchedTeams = owner ? await prefetchedTeamIds() : []
    if (!prefetchedTeams.length) return watchLists()
    await followTeams(prefetchedTeams)
    void screenShown.then(() => serial(async () => watchLists()))
  })
  function watchLists() {
    void pg.live.query<{ user_id: string }>(
      'select user_id from local_owner',
      [],
      (r) => serial(() => switchOwner(r.rows[0]?.user_id ?? null)),
    )
    void pg.live.query<{ team_id: string }>(
      `select t.team_id from user_teams t join local_owner o on o.user_id = t.user_id order by 1`,
      [],
      (r) => serial(() => followTeams(r.rows.map((row) => row.team_id))),
    )
    // Only the owner's teams: another team's (a team left, a previous owner's) is a 404.
    void pg.live.query<{ team_id: string }>(
      `select f.team_id from followed_teams f
         join user_teams t on t.team_id = f.team_id
         join local_owner o on o.user_id = t.user_id
        order by 1`,
      [],
      (r) => serial(() => followTeamPages(r.rows.map((row) => row.team_id))),
    )
    // A tab opened or left a page: what is kept live follows.
    onOpenPagesChanged(() =>
      serial(async () => {
        if (followedTeams) await followTeamPages(followedTeams)
        if (followedSources) await followSources(followedSources)
      }),
    )
    // Only sources still in the store: a deleted (or never visible) source's log shape is a 404.
    void pg.live.query<{ source_id: string }>(
      `select f.source_id from followed_sources f join sources s on s.id = f.source_id
        order by 1`,
      [],
      (r) => serial(() => followSources(r.rows.map((row) => row.source_id))),
    )
  }
  return () => {
    ended = true
    for (const key of [...running.keys()]) unfollow(key)
    return queue
  }
}
