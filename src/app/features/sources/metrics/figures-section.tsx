// The source page's Figures: its retained WAL and lag, changes and writes, and its busiest
// shapes' clients and bytes over the last hour, day or week, live from the local store (so
// offline too, with the last-known points). The charts load late (figure-charts.tsx).
import {
  Box,
  Skeleton,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { lazy, Suspense, useState } from 'react'
import type { Source } from '../../../../shared/entities.ts'
import {
  useShapePoints,
  useSourcePoints,
} from '../../../db/tab/figure-hooks.ts'
import type { FigureWindow } from '../../../db/tab/figure-types.ts'
import { WINDOW_WORDS } from './figure-format.ts'

const FigureCharts = lazy(() => import('./figure-charts.tsx'))

const EMPTY =
  'No figures yet: the first appear within a minute of the source streaming.'

export function FiguresSection({ source }: { source: Source }) {
  const [window, setWindow] = useState<FigureWindow>('hour')
  const points = useSourcePoints(source.id, window)
  const shapes = useShapePoints(source.id, window)
  const loaded = points !== undefined && shapes !== undefined
  return (
    <section aria-label="Figures">
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          alignItems: 'center',
          justifyContent: 'space-between',
          mb: 1,
        }}
      >
        <Typography variant="h5" component="h2">
          Figures
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={window}
          aria-label="Window"
          onChange={(_, value: FigureWindow | null) =>
            value && setWindow(value)
          }
        >
          <ToggleButton value="hour">Last hour</ToggleButton>
          <ToggleButton value="day">Day</ToggleButton>
          <ToggleButton value="week">Week</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {loaded && points.length === 0 && shapes.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {EMPTY}
        </Typography>
      ) : (
        loaded && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {`${points.length} ${points.length === 1 ? 'point' : 'points'} over ${WINDOW_WORDS[window]}.`}
            </Typography>
            <Suspense fallback={<Skeleton variant="rounded" height={240} />}>
              <FigureCharts points={points} shapes={shapes} window={window} />
            </Suspense>
          </>
        )
      )}
    </section>
  )
}
