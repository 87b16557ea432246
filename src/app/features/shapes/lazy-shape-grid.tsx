// The Data Grid is most of the explorer's code: it loads in its own chunk, asked for as soon as
// the page opens (preloadShapeGrid), so choosing a table does not wait for it.
import { lazy } from 'react'

const load = () => import('./shape-grid.tsx')

export const LazyShapeGrid = lazy(() =>
  load().then((module) => ({ default: module.ShapeGrid })),
)

/** Fetches the grid's chunk early; a failure shows when the grid renders, so it is dropped. */
export const preloadShapeGrid = () => void load().catch(() => {})
