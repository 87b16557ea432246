// The Shape Inspector: what a client reading one live shape from an offset receives. An offset
// typed in or picked on the shape's timeline (its start, the snapshot's end, each transaction)
// reads a page of messages with the size of each answer, Next page reads on, and Compare
// lists the rows that changed between two offsets. Read only; the server bounds every read.
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { codeMessage } from '../source-api.ts'
import { formatBytes } from '../format.ts'
import { InspectedMessage } from './inspected-message.tsx'
import { compareOffsets, readMessages, readTimeline } from './inspector-api.ts'
import type { RowChange } from './inspector-format.ts'
import { TimelinePoints } from './timeline-points.tsx'

type Page = Awaited<ReturnType<typeof readMessages>>
type Timeline = Awaited<ReturnType<typeof readTimeline>>

export type InspectedShape = { sourceId: string; handle: string; name: string }

export function ShapeInspectorDialog(props: {
  shape: InspectedShape | null
  onClose: () => void
}) {
  const titleId = useId()
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'))
  return (
    <Dialog
      open={props.shape !== null}
      onClose={props.onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>Shape Inspector</DialogTitle>
      {props.shape && <InspectorBody shape={props.shape} />}
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  )
}

function InspectorBody({ shape }: { shape: InspectedShape }) {
  const { sourceId, handle } = shape
  const [offset, setOffset] = useState('-1')
  const [pages, setPages] = useState<Page[]>([])
  const [timeline, setTimeline] = useState<Timeline | null>(null)
  const [busy, setBusy] = useState(true)
  const [error, setError] = useState<string | null>(null)

  async function read(from: string, more = false) {
    setBusy(true)
    setError(null)
    try {
      const page = await readMessages(sourceId, handle, from)
      setPages((shown) => (more ? [...shown, page] : [page]))
    } catch (e) {
      setError(codeMessage(e))
    } finally {
      setBusy(false)
    }
  }
  // The snapshot's first page and the timeline, as the dialog opens (its body is new for each
  // shape).
  useEffect(() => {
    let open = true
    const failed = (e: unknown) => open && setError(codeMessage(e))
    readMessages(sourceId, handle, '-1')
      .then((page) => open && setPages([page]), failed)
      .finally(() => open && setBusy(false))
    readTimeline(sourceId, handle).then(
      (read) => open && setTimeline(read),
      failed,
    )
    return () => {
      open = false
    }
  }, [sourceId, handle])

  const readFrom = (from: string) => {
    setOffset(from)
    void read(from)
  }
  const last = pages.at(-1)
  const messages = pages.flatMap((p) => p.messages)
  const answers = pages.flatMap((p) => p.answers)
  return (
    <DialogContent>
      <Stack spacing={2}>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {shape.name} · handle {handle}
        </Typography>
        <TimelinePoints timeline={timeline} onPick={readFrom} />
        <Box
          component="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault()
            readFrom(offset.trim() || '-1')
          }}
          sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
        >
          <TextField
            size="small"
            label="Offset"
            value={offset}
            onChange={(e) => setOffset(e.target.value)}
            helperText="-1 for the snapshot, or an offset such as 0_inf or 39626296_4"
            sx={{ flex: '1 1 220px' }}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            Read
          </Button>
        </Box>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <section aria-label="Answers">
          <Typography variant="subtitle2" component="h3">
            Answers
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {answers.map((a, i) => (
              <Typography component="li" variant="body2" key={i}>
                From {a.offset}: {a.messages}{' '}
                {a.messages === 1 ? 'message' : 'messages'},{' '}
                {formatBytes(a.bytes)}, next offset {a.next_offset}
              </Typography>
            ))}
          </Box>
        </section>
        <section aria-label="Messages">
          <Typography variant="subtitle2" component="h3">
            Messages ({messages.length})
          </Typography>
          <Box component="ol" sx={{ m: 0, p: 0 }}>
            {messages.map((m, i) => (
              <InspectedMessage key={i} message={m} />
            ))}
          </Box>
          {last && last.next_offset === null ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Caught up: a live client would ask next with offset {last.offset}.
            </Typography>
          ) : (
            last && (
              <Button
                sx={{ mt: 1 }}
                disabled={busy}
                onClick={() =>
                  last.next_offset && void read(last.next_offset, true)
                }
              >
                Next page
              </Button>
            )
          )}
        </section>
        <CompareOffsets sourceId={sourceId} handle={handle} />
      </Stack>
    </DialogContent>
  )
}

function CompareOffsets(props: { sourceId: string; handle: string }) {
  const [from, setFrom] = useState('-1')
  const [to, setTo] = useState('')
  const [result, setResult] = useState<{
    from: string
    to: string
    rows: RowChange[] | null
  } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function compare(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const [a, b] = [from.trim() || '-1', to.trim() || '-1']
      const rows = await compareOffsets(props.sourceId, props.handle, a, b)
      setResult({ from: a, to: b, rows })
    } catch (error) {
      setError(codeMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-label="Compare offsets">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Compare two offsets
      </Typography>
      <Box
        component="form"
        onSubmit={(e: FormEvent) => void compare(e)}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
      >
        <TextField
          size="small"
          label="From offset"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          sx={{ flex: '1 1 160px' }}
        />
        <TextField
          size="small"
          label="To offset"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          sx={{ flex: '1 1 160px' }}
        />
        <Button type="submit" variant="outlined" disabled={busy}>
          Compare
        </Button>
      </Box>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {result && <ComparedRows {...result} />}
    </section>
  )
}

function ComparedRows(props: {
  from: string
  to: string
  rows: RowChange[] | null
}) {
  if (props.rows === null)
    return (
      <Alert severity="info" sx={{ mt: 1 }}>
        More than 10,000 messages lie past one of these offsets: compare later
        offsets.
      </Alert>
    )
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2">
        {props.rows.length} {props.rows.length === 1 ? 'row' : 'rows'} changed
        between {props.from} and {props.to}
      </Typography>
      <Box component="ul" aria-label="Changed rows" sx={{ m: 0, pl: 2 }}>
        {props.rows.map((row) => (
          <Typography
            component="li"
            variant="body2"
            key={row.key}
            sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
          >
            {row.key}: {row.operations.join(', ')}
          </Typography>
        ))}
      </Box>
    </Box>
  )
}
