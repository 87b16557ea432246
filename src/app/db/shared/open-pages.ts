// Which pages some tab shows now, so the sync (in the store's worker) keeps live only what is on
// a screen: a followed source or team whose page no tab shows keeps its rows (offline, and
// the next visit's first screen) and catches up when its page opens again. Each tab holds a
// shared Web Lock per page it shows, released when the page goes or the tab closes; it says
// so on a BroadcastChannel, and the worker reads the held locks (a closed tab says nothing:
// the worker also looks again every OPEN_PAGES_RECHECK_MS).

export type PageKind = 'source' | 'team'

const PREFIX = 'sluice.open-page:'
const CHANNEL = 'sluice.open-pages'
const OPEN_PAGES_RECHECK_MS = 30_000

const supported = () =>
  typeof navigator !== 'undefined' &&
  navigator.locks !== undefined &&
  typeof BroadcastChannel !== 'undefined'

/** Holds the page open until the returned call; where locks are missing, nothing to hold. */
export function holdOpenPage(kind: PageKind, id: string): () => void {
  if (!supported()) return () => {}
  const channel = new BroadcastChannel(CHANNEL)
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  void navigator.locks.request(
    `${PREFIX}${kind}:${id}`,
    { mode: 'shared' },
    () => {
      channel.postMessage('opened')
      return held
    },
  )
  return () => {
    release()
    // After the lock is gone: a microtask later than the release, and the worker looks again.
    void held.then(() => {
      channel.postMessage('closed')
      channel.close()
    })
  }
}

/**
 * The ids of each kind some tab shows now; null where the browser lacks Web Locks (then every
 * followed page stays live, as before).
 */
export async function openPages(): Promise<Record<
  PageKind,
  Set<string>
> | null> {
  if (!supported()) return null
  const { held = [] } = await navigator.locks.query()
  const open: Record<PageKind, Set<string>> = {
    source: new Set(),
    team: new Set(),
  }
  for (const { name = '' } of held) {
    if (!name.startsWith(PREFIX)) continue
    const [kind, id] = name.slice(PREFIX.length).split(':')
    if ((kind === 'source' || kind === 'team') && id) open[kind].add(id)
  }
  return open
}

/** Calls `changed` when a tab opens or leaves a page, and every OPEN_PAGES_RECHECK_MS. */
export function onOpenPagesChanged(changed: () => void): void {
  if (!supported()) return
  const channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = () => changed()
  setInterval(changed, OPEN_PAGES_RECHECK_MS)
}
