// The source-creation draft: what the wizard's pages have chosen so far, one typed
// value shared by every page, and where it is kept.
//
// Where it is kept: choices (type, team, region, provider picks) go to sessionStorage so a
// reload keeps them. The connection string never does: it may hold the database password, and
// nothing durable in the browser may (sessionStorage is readable by any script of the origin
// and outlives the page). It lives in memory only, so after a reload the configuration page
// sends the user back to paste it again; that is the price of never storing a password.
import { z } from 'zod'
import { regionSchema } from '../../../shared/sources.ts'

const SOURCE_TYPES = ['connection_string', 'supabase', 'neon'] as const

const choiceSchema = z.object({ id: z.string(), name: z.string() })

const persistedSchema = z.object({
  type: z.enum(SOURCE_TYPES).nullable(),
  teamId: z.string().nullable(),
  region: regionSchema.nullable(),
  /** First provider. */
  organization: choiceSchema.nullable(),
  /** Either provider's project. */
  project: choiceSchema.nullable(),
  /** Second provider. */
  branch: choiceSchema.nullable(),
  database: z.string().nullable(),
  role: z.string().nullable(),
  /** What the user typed as the source's name; a copy stored before names existed has none. */
  name: z.string().nullable().default(null),
  /**
   * What the user typed as the source's own project and environment (labels; not the
   * provider's `project` above). A copy stored before they existed has none.
   */
  sourceProject: z.string().nullable().default(null),
  sourceEnvironment: z.string().nullable().default(null),
})

export type SourceDraft = z.infer<typeof persistedSchema> & {
  /** Pasted, or built from the provider's answers. Memory only: it may hold a password. */
  connectionString: string | null
}

export const EMPTY_DRAFT: SourceDraft = {
  type: null,
  teamId: null,
  region: null,
  organization: null,
  project: null,
  branch: null,
  database: null,
  role: null,
  name: null,
  sourceProject: null,
  sourceEnvironment: null,
  connectionString: null,
}

/** The connection string the source is created with, or null while there is none. */
export function finalConnectionString(draft: SourceDraft): string | null {
  return draft.connectionString?.trim() || null
}

export type DetailRow = { label: string; value: string }

const DEFAULT_PORT = '5432'

/**
 * Host, port, database and user of a Postgres URL: never its password. Null when the text is
 * not a postgres:// or postgresql:// URL with a host.
 */
export function connectionDetails(url: string): DetailRow[] | null {
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    return null
  }
  if (!['postgres:', 'postgresql:'].includes(parsed.protocol)) return null
  if (!parsed.hostname) return null
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part)
    } catch {
      return part
    }
  }
  const user = decode(parsed.username)
  // Postgres connects to the database named like the user when the URL names none.
  const database = decode(parsed.pathname.replace(/^\//, '')) || user
  return [
    { label: 'Host', value: parsed.hostname.replace(/^\[|\]$/g, '') },
    { label: 'Port', value: parsed.port || DEFAULT_PORT },
    { label: 'Database', value: database },
    { label: 'User', value: user },
  ]
}

/** The summary the configuration page shows of what will be connected. */
export function draftDetails(draft: SourceDraft): DetailRow[] {
  const url = finalConnectionString(draft)
  const fromUrl = url ? connectionDetails(url) : null
  const picks: DetailRow[] = []
  if (draft.organization)
    picks.push({ label: 'Organization', value: draft.organization.name })
  if (draft.project) picks.push({ label: 'Project', value: draft.project.name })
  if (draft.branch) picks.push({ label: 'Branch', value: draft.branch.name })
  if (fromUrl) return [...picks, ...fromUrl]
  if (draft.database) picks.push({ label: 'Database', value: draft.database })
  if (draft.role) picks.push({ label: 'Role', value: draft.role })
  return picks
}

/** Pasting a connection string makes it a connection-string source: provider picks go. */
export function withConnectionString(
  draft: SourceDraft,
  connectionString: string,
): SourceDraft {
  return {
    ...draft,
    type: 'connection_string',
    organization: null,
    project: null,
    branch: null,
    database: null,
    role: null,
    connectionString: connectionString.trim(),
  }
}

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export const DRAFT_STORAGE_KEY = 'sluice.source-draft'

export type DraftStore = {
  get(): SourceDraft
  update(change: Partial<SourceDraft>): void
  clear(): void
  subscribe(listener: () => void): () => void
}

function restore(storage: DraftStorage | null): SourceDraft {
  try {
    const text = storage?.getItem(DRAFT_STORAGE_KEY)
    if (!text) return EMPTY_DRAFT
    const parsed = persistedSchema.safeParse(JSON.parse(text))
    // An older or tampered copy is dropped, not half-trusted.
    return parsed.success
      ? { ...parsed.data, connectionString: null }
      : EMPTY_DRAFT
  } catch {
    return EMPTY_DRAFT
  }
}

function persist(storage: DraftStorage | null, draft: SourceDraft) {
  // Picked field by field, so a field added to the draft later is not stored by accident.
  const kept: z.infer<typeof persistedSchema> = persistedSchema.parse({
    type: draft.type,
    teamId: draft.teamId,
    region: draft.region,
    organization: draft.organization,
    project: draft.project,
    branch: draft.branch,
    database: draft.database,
    role: draft.role,
    name: draft.name,
    sourceProject: draft.sourceProject,
    sourceEnvironment: draft.sourceEnvironment,
  })
  try {
    storage?.setItem(DRAFT_STORAGE_KEY, JSON.stringify(kept))
  } catch {
    // Storage full or disabled: the draft still lives in memory for this page.
  }
}

export function createDraftStore(storage: DraftStorage | null): DraftStore {
  let draft = restore(storage)
  const listeners = new Set<() => void>()
  const set = (next: SourceDraft) => {
    draft = next
    for (const listener of listeners) listener()
  }
  return {
    get: () => draft,
    update: (change) => {
      const next = { ...draft, ...change }
      persist(storage, next)
      set(next)
    },
    clear: () => {
      try {
        storage?.removeItem(DRAFT_STORAGE_KEY)
      } catch {
        // Nothing stored to remove.
      }
      set(EMPTY_DRAFT)
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** The tab's one draft. */
export const sourceDraft = createDraftStore(
  typeof sessionStorage === 'undefined' ? null : sessionStorage,
)
