// Membership moves as the load process makes and sees them (`--subqueries`): one membership row
// inserted or deleted per sample, and each subquery shape's follower watched for the move it
// brings (a `move-out` event; a `move-in` event, its rows and snapshot end, then up to date).
import type pg from 'pg'
import type { Message } from './client.ts'
import { now, type LatencyResult, type Markers } from './workload.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A user joins (a row inserted) or leaves (deleted) a team. */
export type Move = { user: number; team: number; join: boolean }

export type MovesResult = { in: LatencyResult; out: LatencyResult }

/** The marker a follower of `user`'s shape reports when a move reached it. */
const moveMarker = (join: boolean, user: number | string) =>
  `${join ? 'move-in' : 'move-out'}:${user}`

/**
 * The reply callback of one follower of `user`'s shape. A move-in is whole once its snapshot end
 * has come and a reply ends up to date: the rows may span several replies.
 */
export function moveWatcher(
  user: string,
  markers: Markers,
): (messages: Message[], upToDate: boolean, at: number) => void {
  let movingIn = false
  let ended = false
  return (messages, upToDate, at) => {
    for (const m of messages) {
      if (m.headers.event === 'move-out')
        markers.seen(moveMarker(false, user), at)
      else if (m.headers.event === 'move-in') {
        movingIn = true
        ended = false
      } else if (m.headers.control === 'snapshot-end' && movingIn) ended = true
    }
    if (upToDate && ended) {
      movingIn = ended = false
      markers.seen(moveMarker(true, user), at)
    }
  }
}

/**
 * Each move as one autocommit statement, timed from its COMMIT returning (when the writer knows
 * the change is durable) to the user's follower having the move.
 */
export async function measureMoves(options: {
  client: pg.Client
  markers: Markers
  moves: Move[]
  timeoutMs: number
}): Promise<MovesResult> {
  const result: MovesResult = {
    in: { samples: [], timeouts: 0 },
    out: { samples: [], timeouts: 0 },
  }
  for (const { user, team, join } of options.moves) {
    const seen = options.markers.expect(
      moveMarker(join, user),
      options.timeoutMs,
    )
    await options.client.query(
      join
        ? {
            name: 'bench-join',
            text: 'insert into members (user_id, team_id) values ($1, $2)',
            values: [user, team],
          }
        : {
            name: 'bench-leave',
            text: 'delete from members where user_id = $1 and team_id = $2',
            values: [user, team],
          },
    )
    const committed = now()
    const at = await seen
    const kind = join ? result.in : result.out
    if (at === null) kind.timeouts++
    else kind.samples.push(at - committed)
    // Do not phase-lock with the engine's timers.
    await sleep(Math.random() * 5)
  }
  return result
}
