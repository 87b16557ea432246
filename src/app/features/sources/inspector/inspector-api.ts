// The Shape Inspector's reads (GET .../shapes/{handle}/messages and /timeline), and the reads
// that compare two offsets.
import { sourceCalls } from '../../../../shared/api-calls.ts'
import { api } from '../../../lib/api.ts'
import { changesBetween, type RowChange } from './inspector-format.ts'

/** A page of the messages a client reading the shape from `offset` receives. */
export function readMessages(
  sourceId: string,
  handle: string,
  offset: string,
  limit = PAGE_MESSAGES,
) {
  const { path, response } = sourceCalls.shapeMessages
  const query = new URLSearchParams({ offset, limit: String(limit) })
  return api(`${path(sourceId, handle)}?${query}`, response)
}

export function readTimeline(sourceId: string, handle: string) {
  const { path, response } = sourceCalls.shapeTimeline
  return api(path(sourceId, handle), response)
}

const PAGE_MESSAGES = 100
/** A comparison reads at most this many pages from each offset: 10,000 messages. */
const COMPARE_PAGES = 10
const COMPARE_LIMIT = 1000

type Page = Awaited<ReturnType<typeof readMessages>>

/** Every message from `offset` to the up-to-date, or null past COMPARE_PAGES pages. */
async function readToEnd(sourceId: string, handle: string, offset: string) {
  const messages: Page['messages'] = []
  let next: string | null = offset
  for (let i = 0; i < COMPARE_PAGES && next !== null; i++) {
    const page: Page = await readMessages(sourceId, handle, next, COMPARE_LIMIT)
    messages.push(...page.messages)
    next = page.next_offset
  }
  return next === null ? messages : null
}

/** The rows changed between two offsets; null when either read is past the bound. */
export async function compareOffsets(
  sourceId: string,
  handle: string,
  a: string,
  b: string,
): Promise<RowChange[] | null> {
  const [first, second] = await Promise.all([
    readToEnd(sourceId, handle, a),
    readToEnd(sourceId, handle, b),
  ])
  if (!first || !second) return null
  return changesBetween(first, second)
}
