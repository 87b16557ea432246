// The source page's charts (figures-section.tsx loads this module late: the chart library stays
// out of the first paint's bundle). One chart a concern, one column on a phone and two where
// there is room, each with its figures in words beneath for those who do not see the lines.
import { Box, Typography } from '@mui/material'
import { LineChart } from '@mui/x-charts/LineChart'
import type {
  FigureWindow,
  ShapePoint,
  SourcePoint,
} from '../../../db/tab/figure-types.ts'
import {
  formatBytesShort,
  formatRate,
  formatTick,
  seriesSummary,
  shapeSeries,
} from './figure-format.ts'

// More lines than a phone's legend can name in a few rows.
const SHAPES_CHARTED = 5

type Line = { label: string; values: (number | null)[] }

export default function FigureCharts(props: {
  points: SourcePoint[]
  shapes: ShapePoint[]
  window: FigureWindow
}) {
  const { points, shapes, window } = props
  const times = points.map((point) => point.at)
  const clients = shapeSeries(shapes, (p) => p.clients, SHAPES_CHARTED)
  const bytes = shapeSeries(shapes, (p) => p.bytes_per_minute, SHAPES_CHARTED)
  const perShape = (series: typeof clients.series): Line[] =>
    series.map(({ label, values }) => ({ label, values }))
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          lg: 'repeat(2, minmax(0, 1fr))',
        },
      }}
    >
      <Chart
        title="Retained WAL and lag"
        times={times}
        window={window}
        format={formatBytesShort}
        lines={[
          {
            label: 'Retained WAL',
            values: points.map((p) => p.retained_wal_bytes),
          },
          { label: 'Lag', values: points.map((p) => p.lag_bytes) },
        ]}
      />
      <Chart
        title="Changes/s and writes/min"
        times={times}
        window={window}
        format={formatRate}
        lines={[
          {
            label: 'Changes/s',
            values: points.map((p) => p.changes_per_second),
          },
          {
            label: 'Writes/min',
            values: points.map((p) => p.writes_per_minute),
          },
        ]}
      />
      <Chart
        title="Clients per shape"
        times={clients.times}
        window={window}
        format={formatRate}
        lines={perShape(clients.series)}
      />
      <Chart
        title="Bytes/min per shape"
        times={bytes.times}
        window={window}
        format={formatBytesShort}
        lines={perShape(bytes.series)}
      />
    </Box>
  )
}

function Chart(props: {
  title: string
  times: string[]
  window: FigureWindow
  format: (value: number) => string
  lines: Line[]
}) {
  const { title, format, lines } = props
  const summary = lines.map((line) =>
    seriesSummary(line.label, line.values, format),
  )
  return (
    <Box component="figure" aria-label={title} sx={{ m: 0, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      {props.times.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No figures in this window.
        </Typography>
      ) : (
        // The lines repeat what the caption says in words.
        <Box aria-hidden="true">
          <LineChart
            height={220}
            skipAnimation
            margin={{ left: 0, right: 8 }}
            xAxis={[
              {
                data: props.times.map((at) => new Date(at)),
                scaleType: 'time',
                valueFormatter: (at: Date) => formatTick(at, props.window),
                tickNumber: 4,
              },
            ]}
            yAxis={[{ valueFormatter: format, width: 56, min: 0 }]}
            series={lines.map((line) => ({
              data: line.values,
              label: line.label,
              showMark: false,
              valueFormatter: (value: number | null) =>
                value === null ? '-' : format(value),
            }))}
          />
        </Box>
      )}
      <Typography component="figcaption" variant="body2" color="text.secondary">
        {summary.join(' ')}
      </Typography>
    </Box>
  )
}
