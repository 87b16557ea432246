// What a source's state badge says and in which colour. The raw state alone can
// mislead: a source being deleted or transferred still reports its last engine state.
import type { Source } from './entities.ts'

export type BadgeColor = 'red' | 'amber' | 'green' | 'violet' | null

export type SourceDisplay = { state: string; color: BadgeColor }

const RED = new Set(['error', 'delete_failed'])
const AMBER = new Set([
  'reconnecting',
  'initializing',
  'waiting',
  'cleanup_requested',
  'transfer_requested',
  'preparing_transfer',
  'transferring',
])

function displayedState(
  source: Pick<Source, 'state' | 'deleted_at' | 'target_electric_url'>,
): string {
  const { state } = source
  if (source.deleted_at) {
    if (state === 'delete_failed' || state === 'error') return 'delete_failed'
    if (state === 'stopping') return 'stopping'
    return 'cleanup_requested'
  }
  if (source.target_electric_url) {
    if (state === 'preparing_transfer' || state === 'transferring') return state
    return 'transfer_requested'
  }
  return state
}

function badgeColor(state: string): BadgeColor {
  if (RED.has(state)) return 'red'
  if (AMBER.has(state)) return 'amber'
  if (state === 'active') return 'green'
  if (state === 'stopping') return 'violet'
  return null
}

/** The state to show for a source, and its badge colour. */
export function sourceDisplay(
  source: Pick<Source, 'state' | 'deleted_at' | 'target_electric_url'>,
): SourceDisplay {
  const state = displayedState(source)
  return { state, color: badgeColor(state) }
}

export type SourceLifecycle = 'live' | 'deletion_pending' | 'deletion_failed'

/**
 * Where a source is in its life, for the actions its page offers: a deletion that
 * failed can only be forgotten; one still pending cannot be asked for again.
 */
export function sourceLifecycle(
  source: Pick<Source, 'state' | 'deleted_at'>,
): SourceLifecycle {
  if (!source.deleted_at) return 'live'
  // The engine reports a failed cleanup as error, or as delete_failed (the event's name).
  if (source.state === 'error' || source.state === 'delete_failed')
    return 'deletion_failed'
  return 'deletion_pending'
}

/** How a source is called on cards and in titles: its name, or its id without one. */
export function sourceLabel(source: Pick<Source, 'id' | 'name'>): string {
  return source.name || source.id
}
