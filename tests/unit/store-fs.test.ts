// The store's write-backs to IndexedDB (src/app/db/worker/store-fs.ts): statements close together
// share one, and the first after opening waits longer, past the visit's first screen; none once
// the files are to be deleted (a sign-out). Only their scheduling is tested here, the write-back
// observed by a spy; what one writes is store-write-back.test.ts's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { StoreFs } from '../../src/app/db/worker/store-fs.ts'

let writeBacks: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  vi.useFakeTimers()
  writeBacks = vi
    .spyOn(StoreFs.prototype, 'writeBack')
    .mockImplementation(() => Promise.resolve())
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('StoreFs write-backs', () => {
  it('holds the first one three seconds, however many statements ask', async () => {
    const fs = new StoreFs('test')
    const asked = [fs.syncToFs(), fs.syncToFs(), fs.syncToFs()]
    await vi.advanceTimersByTimeAsync(2999)
    expect(writeBacks).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await Promise.all(asked)
    expect(writeBacks).toHaveBeenCalledTimes(1)
  })

  it('then shares one among the statements of each 200 ms', async () => {
    const fs = new StoreFs('test')
    const first = fs.syncToFs()
    await vi.advanceTimersByTimeAsync(3000)
    await first
    const next = [fs.syncToFs(), fs.syncToFs()]
    await vi.advanceTimersByTimeAsync(199)
    expect(writeBacks).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    await Promise.all(next)
    expect(writeBacks).toHaveBeenCalledTimes(2)
    // A statement after that write-back started gets a write-back of its own.
    const later = fs.syncToFs()
    await vi.advanceTimersByTimeAsync(200)
    await later
    expect(writeBacks).toHaveBeenCalledTimes(3)
  })

  it('writes back at once when flushed, after the one in progress', async () => {
    const fs = new StoreFs('test')
    let finishFirst: () => void = () => {}
    writeBacks.mockImplementationOnce(
      () => new Promise<void>((resolve) => (finishFirst = resolve)),
    )
    const first = fs.syncToFs()
    await vi.advanceTimersByTimeAsync(3000)
    expect(writeBacks).toHaveBeenCalledTimes(1)
    // Flushed while the first is still writing: the second starts when the first is done.
    const flushed = fs.flush()
    await vi.advanceTimersByTimeAsync(0)
    expect(writeBacks).toHaveBeenCalledTimes(1)
    finishFirst()
    await first
    await flushed
    expect(writeBacks).toHaveBeenCalledTimes(2)
  })

  it('writes nothing back once its files are released for deletion, not even one already asked', async () => {
    const fs = new StoreFs('test')
    const asked = fs.syncToFs()
    await fs.release()
    const later = fs.syncToFs()
    await vi.advanceTimersByTimeAsync(3000)
    await Promise.all([asked, later])
    expect(writeBacks).not.toHaveBeenCalled()
  })
})
