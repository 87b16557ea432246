// `bench:engine -- --subqueries`: what subquery shapes cost, in one run on their own Postgres.
// Users each belong to 1-3 teams (`members`); each user's shape is `team_id IN (SELECT team_id
// FROM members WHERE user_id = $1)` on `items`, followed by a long-polling client. Measured:
//  1. membership change -> client: a user joins or leaves a team, timed from the COMMIT to the
//     user's client having the move (the move-in's rows up to date, or the move-out event);
//  2. root-table change cost: engine-process CPU per 1,000 single-row `items` updates of random
//     teams, with one plain `team_id = $1` shape per team and then with the subquery shapes
//     (each a window as the throughput phase runs them, window.ts), and their ratio.
import type pg from 'pg'
import type { ShapeSpec } from './client.ts'
import { seed } from './env.ts'
import type { LoadProcess } from './ipc.ts'
import type { Move, MovesResult } from './moves.ts'
import { runWindow, type Consumer, type WindowResult } from './window.ts'
import type { WriterShape } from './workload.ts'

export const ITEMS_PER_TEAM = 10
const VOCABULARY = 1_000
const MAX_TEAMS_PER_USER = 3
const MOVE_TIMEOUT_MS = 5_000
const BURST_CAP_MS = 60_000
const DRAIN_TIMEOUT_MS = 30_000

export type SubqueriesConfig = {
  /** Users (one subquery shape each) and teams (one plain shape each). */
  shapes: number
  samples: number
  /** Single-row updates in each measured burst. */
  changes: number
}

/** Each user's teams (index 0 is user 1). */
type Membership = Set<number>[]

const random = (n: number) => 1 + Math.floor(Math.random() * n)

/**
 * Gives `members` its users, makes user 1 a member of team 1 for good (the windows' mark rows go
 * to team 1, and some client must see them), and seeds `items`. Returns the load process's
 * writer: one update per commit, as an application's single-row writes are.
 */
export async function seedSubqueries(
  admin: pg.Client,
  config: SubqueriesConfig,
): Promise<{ writer: WriterShape; membership: Membership }> {
  const teams = config.shapes
  await admin.query(`
    alter table members add column user_id int not null;
    create unique index on members (user_id, team_id);`)
  await seed(admin, 'items', teams, ITEMS_PER_TEAM, VOCABULARY)
  const membership: Membership = Array.from(
    { length: config.shapes },
    (_, i) => {
      const joined = new Set(i === 0 ? [1] : [])
      const count = random(MAX_TEAMS_PER_USER)
      while (joined.size < count) joined.add(random(teams))
      return joined
    },
  )
  const pairs = membership.flatMap((joined, i) =>
    [...joined].map((team) => [i + 1, team]),
  )
  await admin.query(
    `insert into members (user_id, team_id)
     select * from unnest($1::int[], $2::int[])`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  )
  return {
    membership,
    writer: {
      teams,
      vocabulary: VOCABULARY,
      updatePool: teams * ITEMS_PER_TEAM,
      inserts: 0,
      updates: 1,
    },
  }
}

/**
 * Joins and leaves in turn, each user kept in 1-3 teams and user 1 in team 1: half the samples
 * move rows in, half out. Updates `membership` as the moves will.
 */
function planMoves(
  membership: Membership,
  samples: number,
  teams: number,
): Move[] {
  const moves: Move[] = []
  while (moves.length < samples) {
    const join = moves.length % 2 === 0
    const user = random(membership.length)
    const joined = membership[user - 1]
    if (!joined) continue
    if (join) {
      if (joined.size >= MAX_TEAMS_PER_USER) continue
      let team = random(teams)
      while (joined.has(team)) team = random(teams)
      joined.add(team)
      moves.push({ user, team, join })
    } else {
      const leavable = [...joined].filter((t) => user !== 1 || t !== 1)
      if (joined.size < 2 || leavable.length === 0) continue
      const team = leavable[Math.floor(Math.random() * leavable.length)] ?? 0
      joined.delete(team)
      moves.push({ user, team, join })
    }
  }
  return moves
}

export type SubqueriesReport = {
  config: SubqueriesConfig
  memberships: number
  connectMs: { plain: number; subquery: number }
  moves: MovesResult
  root: { plain: WindowResult; subquery: WindowResult }
}

type Context = {
  load: LoadProcess
  admin: pg.Client
  consumer: Consumer
  config: SubqueriesConfig
  membership: Membership
  log: (line: string) => void
  /** Around the subquery shapes' measured burst (a CPU profile), if asked for. */
  profile: (<T>(run: () => Promise<T>) => Promise<T>) | null
}

async function follow(
  load: LoadProcess,
  specs: ShapeSpec[],
  watchMoves: boolean,
): Promise<number> {
  const follow = await load.call({ kind: 'follow', specs, watchMoves })
  if (follow.failed > 0)
    throw new Error(`${follow.failed} followers failed: ${follow.failure}`)
  return follow.ms
}

/** A short unmeasured burst (code loaded and optimised), then the measured one. */
async function burst(
  ctx: Context,
  name: string,
  around: Context['profile'],
): Promise<WindowResult> {
  const window = (maxRows: number, tag: string) =>
    runWindow({
      ...ctx,
      offeredPerSec: null,
      maxRows,
      durationMs: BURST_CAP_MS,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
      name: `subqueries-${name}-${tag}`,
    })
  ctx.log(`subqueries: ${name} shapes, warm-up burst`)
  await window(Math.ceil(ctx.config.changes / 5), 'warm')
  ctx.log(`subqueries: ${name} shapes, ${ctx.config.changes} updates`)
  const run = () => window(ctx.config.changes, 'burst')
  return around ? around(run) : run()
}

export async function measureSubqueries(
  ctx: Context,
): Promise<SubqueriesReport> {
  const { load, config, membership, log } = ctx
  const memberships = membership.reduce((n, joined) => n + joined.size, 0)
  log(`subqueries: ${config.shapes} team_id = $1 shapes`)
  const teamSpecs = Array.from(
    { length: config.shapes },
    (_, i): ShapeSpec => ({
      table: 'items',
      where: 'team_id = $1',
      params: [String(i + 1)],
    }),
  )
  const plainConnect = await follow(load, teamSpecs, false)
  const plain = await burst(ctx, 'team_id = $1', null)
  await load.call({ kind: 'unfollow' })

  log(`subqueries: ${config.shapes} subquery shapes`)
  const userSpecs = Array.from(
    { length: config.shapes },
    (_, i): ShapeSpec => ({
      table: 'items',
      where: 'team_id IN (SELECT team_id FROM members WHERE user_id = $1)',
      params: [String(i + 1)],
    }),
  )
  const subqueryConnect = await follow(load, userSpecs, true)
  log(`subqueries: ${config.samples} membership changes`)
  const moves = await load.call({
    kind: 'moves',
    moves: planMoves(membership, config.samples, config.shapes),
    timeoutMs: MOVE_TIMEOUT_MS,
  })
  const subquery = await burst(ctx, 'subquery', ctx.profile)
  await load.call({ kind: 'unfollow' })
  return {
    config,
    memberships,
    connectMs: { plain: plainConnect, subquery: subqueryConnect },
    moves,
    root: { plain, subquery },
  }
}
