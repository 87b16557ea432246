// A source's event-log stream never asks into the 404 of a dropped source (event-log-fetch.ts).
import { describe, expect, it, vi } from 'vitest'
import {
  eventLogFetch,
  readAnswer,
} from '../../src/app/db/worker/event-log-fetch.ts'

const event = (name: string, txids?: number[]) => ({
  headers: { operation: 'insert', ...(txids ? { txids } : {}) },
  value: { event_name: name },
})
const removed = { headers: { operation: 'delete' }, value: { id: 'e1' } }
const reply = (messages: unknown[]) =>
  Promise.resolve(new Response(JSON.stringify(messages)))

describe('readAnswer', () => {
  it('a delete means the source is gone', () => {
    expect(readAnswer([event('source_active'), removed])).toEqual({
      deletes: true,
    })
  })
  it('a delete request is a removal under way, until a delete_failed follows it', () => {
    expect(readAnswer([event('delete_requested', [7, 9])])).toEqual({
      deletes: false,
      removalRequested: 9,
    })
    expect(readAnswer([event('delete_requested')]).removalRequested).toBe(null)
    expect(
      readAnswer([event('delete_requested', [7]), event('delete_failed', [8])])
        .removalRequested,
    ).toBeUndefined()
  })
})

describe('eventLogFetch', () => {
  it('after an answer that deletes rows, the next request waits for the stream to stop', async () => {
    const fetchMock = vi.fn(() => reply([removed]))
    const client = eventLogFetch(fetchMock, () => new Promise(() => {}))
    await client('/v1/source-event-logs')
    const aborter = new AbortController()
    const next = client('/v1/source-event-logs', { signal: aborter.signal })
    aborter.abort()
    await expect(next).rejects.toThrow()
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('after a delete request, the next request waits for the removal outcome', async () => {
    const fetchMock = vi.fn(() => reply([event('delete_requested', [42])]))
    let settle!: () => void
    const outcome = vi.fn(() => new Promise<void>((r) => (settle = r)))
    const client = eventLogFetch(fetchMock, outcome)
    await client('/v1/source-event-logs')
    expect(outcome).toHaveBeenCalledWith(42)
    fetchMock.mockImplementation(() => reply([event('delete_failed', [43])]))
    const next = client('/v1/source-event-logs')
    await Promise.resolve()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    settle()
    await next
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })
})
