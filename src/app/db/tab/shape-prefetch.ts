// The tab's half of a first visit's prefetch (worker/shape-prefetch.ts explains it): the
// snapshots of the user's shapes, asked for as soon as the session is known, each answer
// handed to the store's worker as it arrives.
import { liveSyncFetch } from '../../lib/live-sync.ts'
import {
  teamPaths,
  TEAMS_PATH,
  USER_PATH,
  type PrefetchedAnswer,
} from '../shared/prefetch.ts'
import { PREFETCHED_SHAPE } from '../shared/worker-messages.ts'

type Post = (message: unknown, transfer: Transferable[]) => void

export async function prefetchShapes(post: Post): Promise<void> {
  const ask = async (path: string): Promise<ArrayBuffer | null> => {
    const url = new URL(path, location.origin)
    url.searchParams.set('offset', '-1')
    let answer: PrefetchedAnswer = null
    try {
      const response = await liveSyncFetch(url)
      // Anything but a snapshot (an error, no answer) is left to the stream to ask again.
      if (response.ok)
        answer = {
          status: response.status,
          headers: [...response.headers],
          body: await response.arrayBuffer(),
        }
    } catch {
      // No answer: the same.
    }
    // The worker gets a copy: the tab still reads the team list below.
    post({ type: PREFETCHED_SHAPE, url: url.toString(), answer }, [])
    return answer?.body ?? null
  }
  const [, teams] = await Promise.all([ask(USER_PATH), ask(TEAMS_PATH)])
  if (teams) for (const path of teamPaths(teams)) void ask(path)
}
