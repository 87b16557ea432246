// Waiting on a condition, never on a guessed delay: polls until it holds or the time is up.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await Promise.resolve(check()).catch(() => false))) {
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000} s: ${what}`)
    await sleep(50)
  }
}
