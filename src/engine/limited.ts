/**
 * Runs `fn` on every item, at most `limit` at once; rejects with the first failure once the
 * others in flight have settled. Thousands of file operations started in one go hold the event
 * loop for tens of milliseconds and queue far past the threadpool's four threads.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++] as T
      try {
        await fn(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  )
  if (failure) throw (failure as { error: unknown }).error
}
