// A first visit's shape snapshots, asked for by the tab while Postgres starts.
//
// On a browser's first visit Postgres takes most of a second to start from the seed (its code
// not yet optimized), and only then could the sync ask for the user's shapes: one round for
// the user and their teams, then one for each team's sources and members. The tab knows who
// is signed in well before that, and its thread is free while this one runs Postgres's
// start-up (which holds up even the handling of answers to requests made from here): the tab
// asks for those snapshots (offset=-1) and hands each answer over (tab/shape-prefetch.ts). The
// sync's streams take their first answers from here, waiting for one still on its way. Each
// is the very request the stream would have made, made earlier: the stream carries on from the
// snapshot's offset as it would have. Kept for the user they were asked for only (the sync
// checks its owner: keepPrefetchedFor), and only for a short while.
import {
  prefetchKey,
  teamIdsIn,
  teamPaths,
  TEAMS_PATH,
  USER_PATH,
  type PrefetchedAnswer,
} from '../shared/prefetch.ts'

type Pending = {
  answer: Promise<PrefetchedAnswer>
  arrive: (answer: PrefetchedAnswer) => void
  taken: boolean
}
type Prefetch = {
  userId: string
  answers: Map<string, Pending>
  teamIds: Promise<string[]>
}

// Unused by then: the sync did not start, or started for someone else.
const KEPT_MS = 30_000
// A stream waits this long at most for an answer still on its way, then asks itself.
const WAIT_MS = 5_000

let current: Prefetch | null = null

/** The tab is prefetching `userId`'s snapshots: their answers follow (prefetched). */
export function expectPrefetch(userId: string): void {
  const answers = new Map<string, Pending>()
  const expect = (path: string) => pendingFor(answers, prefetchKey(path))
  expect(USER_PATH)
  // Each team's shapes are expected as soon as the team list is in, before their own answers
  // (a stream asking in between would otherwise find nothing and ask itself). The team ids
  // are read at once, too: the teams' stream takes that answer itself.
  const teamIds = expect(TEAMS_PATH).answer.then((answer) => {
    if (!answer) return []
    for (const path of teamPaths(answer.body)) expect(path)
    return teamIdsIn(answer.body)
  })
  const prefetch: Prefetch = { userId, answers, teamIds }
  current = prefetch
  setTimeout(() => {
    if (current === prefetch) current = null
  }, KEPT_MS)
}

/** The tab's answer for `url`. */
export function prefetched(url: string, answer: PrefetchedAnswer): void {
  if (!current) return
  pendingFor(current.answers, prefetchKey(url)).arrive(answer)
}

function pendingFor(answers: Map<string, Pending>, key: string): Pending {
  let pending = answers.get(key)
  if (!pending) {
    let arrive: (answer: PrefetchedAnswer) => void = () => {}
    const answer = new Promise<PrefetchedAnswer>(
      (resolve) => (arrive = resolve),
    )
    pending = { answer, arrive, taken: false }
    answers.set(key, pending)
  }
  return pending
}

/** The sync is for `owner`: what was prefetched for anyone else is dropped. */
export function keepPrefetchedFor(owner: string | null): void {
  if (current?.userId !== owner) current = null
}

/**
 * The owner's teams as the prefetched snapshot listed them, so the sync can follow their
 * lists before its own team list has landed; none without a prefetch.
 */
export async function prefetchedTeamIds(): Promise<string[]> {
  return (current && (await inTime(current.teamIds))) ?? []
}

// Not there in time (the tab's request is stuck, or never made): the sync asks itself.
function inTime<T>(answer: Promise<T>): Promise<T | null> {
  return Promise.race([
    answer,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), WAIT_MS)),
  ])
}

/**
 * `fetchClient` for a stream whose first request may have been prefetched: that request is
 * answered from the prefetch (once), every other one asked as usual.
 */
export function prefetchedOr(fetchClient: typeof fetch): typeof fetch {
  return async (input, init) => {
    const answer = await take(
      new URL(input instanceof Request ? input.url : String(input)),
    )
    if (!answer) return fetchClient(input, init)
    return new Response(answer.body, {
      status: answer.status,
      headers: answer.headers,
    })
  }
}

function take(url: URL): Promise<PrefetchedAnswer> | null {
  if (!current) return null
  // Only a snapshot request; a stream resuming (with a handle) asks for something else.
  if (url.searchParams.get('offset') !== '-1' || url.searchParams.has('handle'))
    return null
  const pending = current.answers.get(prefetchKey(url.toString()))
  // Once: a stream starting over (a 409, say) needs a new snapshot. Kept in the map, so an
  // answer arriving after this still reaches the stream waiting for it.
  if (!pending || pending.taken) return null
  pending.taken = true
  return inTime(pending.answer)
}
