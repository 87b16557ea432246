// The first screen with the user's data is up (db/tab/first-reads.ts reports it). What can
// wait waits for it: on a first visit the service worker's precache download (18 MB) ran
// while Postgres started and the first sync ran, and put 0.4 s on the first synced rows.

let shown: () => void = () => {}
const firstScreen = new Promise<void>((resolve) => (shown = resolve))

export function reportFirstScreen(): void {
  shown()
}

/** Resolves once the first screen is up, or after `limitMs` if it never comes. */
export function afterFirstScreen(limitMs: number): Promise<void> {
  return Promise.race([
    firstScreen,
    new Promise<void>((resolve) => setTimeout(resolve, limitMs)),
  ])
}
