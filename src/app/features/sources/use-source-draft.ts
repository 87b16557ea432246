// The wizard pages' view of the tab's one source draft.
import { useSyncExternalStore } from 'react'
import { sourceDraft, type SourceDraft } from './draft.ts'

export function useSourceDraft(): SourceDraft {
  return useSyncExternalStore(sourceDraft.subscribe, sourceDraft.get)
}
