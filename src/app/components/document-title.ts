// The browser tab's title for each page: `{page} · Sluice`, or just `Sluice` while a page has
// none to give (loading). Every page sets it, through PageTitle or directly.
import { useEffect } from 'react'

const APP_NAME = 'Sluice'

function documentTitle(page: string | null): string {
  return page ? `${page} · ${APP_NAME}` : APP_NAME
}

export function useDocumentTitle(page: string | null) {
  useEffect(() => {
    document.title = documentTitle(page)
    // Reset on leaving, so a page that has not set its own yet never shows the last one's.
    return () => {
      document.title = APP_NAME
    }
  }, [page])
}
