// Gives the dashboard's live-query hooks their store.
import { PGliteProvider } from '@electric-sql/pglite-react'
import type { ReactNode } from 'react'
import type { LocalStore } from './store.ts'

export function LocalStoreProvider(props: {
  store: LocalStore
  children: ReactNode
}) {
  return <PGliteProvider db={props.store}>{props.children}</PGliteProvider>
}
