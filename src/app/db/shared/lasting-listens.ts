// The store is one Postgres session, shared by the worker that holds it (its sync's live
// queries) and every tab (their PGliteWorkers send their statements to it). PGlite and
// PGliteWorker each UNLISTEN a channel once their own last listener on it stops, and in that one
// session the UNLISTEN ends the channel for everyone: a tab leaving a page silenced the sync's
// live query on the same table, which then never heard of a team added meanwhile (its sources
// never synced: the claim e2e, 1 run in 5). So here a channel, once listened, stays listened
// for the session's life, and a stop only removes its callback. The cost: a notification per
// changed statement on tables some live query once read (a dozen at most), unheard by anyone.

type Callback = (payload: string) => void
type Stop = (tx?: unknown) => Promise<void>
/** How the client itself listens (PGlite's or PGliteWorker's `listen`). */
type Listen<Tx> = (
  channel: string,
  callback: Callback,
  tx?: Tx,
) => Promise<unknown>

type Channel = { callbacks: Set<Callback>; heard: Callback; listened: boolean }

export type LastingListens<Tx> = {
  listen(channel: string, callback: Callback, tx?: Tx): Promise<Stop>
  /** Every callback now listening (to call them after a change of session). */
  callbacks(): Callback[]
  /** The session is a new one (another worker holds the store): each channel is LISTENed anew. */
  sessionChanged(): void
}

export function lastingListens<Tx>(listen: Listen<Tx>): LastingListens<Tx> {
  const channels = new Map<string, Channel>()
  return {
    async listen(name, callback, tx) {
      let channel = channels.get(name)
      if (!channel) {
        const callbacks = new Set<Callback>()
        // One callback per channel for the client's life: its own list never grows.
        const heard = (payload: string) => {
          for (const each of [...callbacks]) each(payload)
        }
        channel = { callbacks, heard, listened: false }
        channels.set(name, channel)
      }
      channel.callbacks.add(callback)
      if (!channel.listened) {
        channel.listened = true
        try {
          await listen(name, channel.heard, tx)
        } catch (error) {
          channel.listened = false
          channel.callbacks.delete(callback)
          throw error
        }
      }
      const { callbacks } = channel
      return async () => {
        callbacks.delete(callback)
      }
    },
    callbacks: () =>
      [...channels.values()].flatMap(({ callbacks }) => [...callbacks]),
    sessionChanged() {
      for (const channel of channels.values()) channel.listened = false
    },
  }
}

type Listening<Tx> = {
  listen(
    channel: string,
    callback: Callback,
    tx?: Tx,
  ): Promise<(tx?: Tx) => Promise<void>>
}

/** The holding worker's PGlite: its own live queries' LISTENs last as the tabs' do. */
export function keepListensLasting<Tx>(pg: Listening<Tx>): void {
  pg.listen = lastingListens<Tx>(pg.listen.bind(pg)).listen
}
