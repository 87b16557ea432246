// What a shape's clients were told of its subqueries' results (the `applied` results of
// moves.ts), and how far its transactions were applied, kept beside its log so a restarted engine resumes the shape where its log ends:
// the results at the snapshot, then each move's change, every entry at the log offset where
// its event sits. Reopened, the entries up to the recovered log's end are replayed; later ones
// (the log lost them in a crash) are dropped with it. An entry is made durable before the
// records it describes can be: a log never holds a move its results do not.
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE } from '../../storage/private-files.ts'
import {
  compareOffsets,
  formatOffset,
  parseOffset,
  type Offset,
} from '../../storage/offset.ts'

type Tuple = (string | null)[]

/** The results in full (at the snapshot), or one dependency's change at a move. */
export type ResultEntry =
  { full: Tuple[][] } | { dep: number; add: Tuple[]; remove: Tuple[] }

/**
 * Or where records go past the commit LSNs (mover.ts's floor, decimal), or the last
 * transaction applied when its records sit there (its commit LSN): what the log's offsets no
 * longer say.
 */
export type AppliedEntry = ResultEntry | { floor: string } | { lsn: string }

const FILE = 'applied.jsonl'

export function writeApplied(
  dir: string,
  at: Offset,
  entries: AppliedEntry[],
): void {
  if (entries.length === 0) return
  const text = entries
    .map((entry) => `${JSON.stringify({ at: formatOffset(at), ...entry })}\n`)
    .join('')
  const fd = openSync(join(dir, FILE), 'a', PRIVATE_FILE)
  try {
    writeSync(fd, text)
    fdatasyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** The entries at or before `end` (the recovered log's last offset), in order. */
export function readApplied(dir: string, end: Offset): AppliedEntry[] {
  const path = join(dir, FILE)
  if (!existsSync(path)) return []
  const out: AppliedEntry[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue
    let parsed: { at: string } & AppliedEntry
    try {
      parsed = JSON.parse(line) as { at: string } & AppliedEntry
    } catch {
      break // a line cut short by a crash: nothing after it was written
    }
    const at = parseOffset(parsed.at)
    if (!at || compareOffsets(at, end) > 0) break
    const { at: _, ...entry } = parsed
    out.push(entry)
  }
  return out
}
