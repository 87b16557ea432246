import { createRouter } from '@tanstack/react-router'
import { NotFoundPage } from './components/not-found-page.tsx'
import { routeTree } from './routeTree.gen.ts'

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  defaultNotFoundComponent: NotFoundPage,
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
