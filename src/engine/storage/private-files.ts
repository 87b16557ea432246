// Sluice's data on disk is its own user's alone: shape logs, the journal and spill files hold
// users' rows, and the control plane's logs its sources' settings. Every directory is created
// 0700 and every file 0600 with the mode given explicitly (the default would follow the
// process's umask, often 022: world-readable). tightenTree fixes what an older version, a copy
// or a restored backup left looser.
import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs'
import { join } from 'node:path'

export const PRIVATE_DIR = 0o700
export const PRIVATE_FILE = 0o600

export type TightenOptions = {
  /** Names directly under the root left alone: another program's, with its own rules. */
  except?: string[]
  /**
   * The root's own mode, when others must traverse it (0701: an embedded Postgres running as
   * another user reaches its data dir below). Traverse-only lists and reads nothing.
   */
  rootMode?: number
}

/**
 * Makes `root` and everything under it private (symlinks are not followed); answers how many
 * were looser. Throws, naming the path, when one cannot be fixed (owned by another user):
 * serving users' rows from files others can read is refused.
 */
export function tightenTree(
  root: string,
  options: TightenOptions = {},
): number {
  const except = new Set(options.except)
  let fixed = tighten(root, lstatSync(root), options.rootMode ?? PRIVATE_DIR)
  for (const entry of readdirSync(root, { withFileTypes: true }))
    if (!except.has(entry.name)) fixed += tightenBelow(join(root, entry.name))
  return fixed
}

function tightenBelow(path: string): number {
  const stat = lstatSync(path)
  if (stat.isFile()) return tighten(path, stat, PRIVATE_FILE)
  if (!stat.isDirectory()) return 0
  let fixed = tighten(path, stat, PRIVATE_DIR)
  for (const name of readdirSync(path)) fixed += tightenBelow(join(path, name))
  return fixed
}

function tighten(path: string, stat: Stats, allowed: number): number {
  const mode = stat.mode & 0o777
  if ((mode & ~allowed) === 0) return 0
  try {
    chmodSync(path, mode & allowed)
  } catch (error) {
    throw new Error(
      `${path} is readable by other users (mode ${mode.toString(8)}) and its mode cannot be changed (${(error as NodeJS.ErrnoException).code}): make it ${allowed.toString(8)}, owned by the user Sluice runs as`,
      { cause: error },
    )
  }
  return 1
}

/** The one line that says a data dir was tightened; nothing when it was already private. */
export function tightenedNotice(dir: string, fixed: number): string | null {
  return fixed === 0
    ? null
    : `data dir ${dir}: ${fixed} ${fixed === 1 ? 'entry was' : 'entries were'} open to other users; made private (directories 0700, files 0600)`
}
