// A source's tables in the sidebar: a prefix filter, a reload button, and the list,
// labelled without their schema when every table is in `public`.
import RefreshIcon from '@mui/icons-material/Refresh'
import {
  Alert,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import {
  everyTableIsPublic,
  filterTables,
  tableLabel,
  type TableRef,
} from './table-names.ts'
import type { SourceSchema } from './use-source-schema.ts'

const sameTable = (a: TableRef | null, b: TableRef) =>
  a?.schema === b.schema && a.name === b.name

export function TableList(props: {
  schema: SourceSchema
  selected: TableRef | null
  onTable: (table: TableRef) => void
  onReload: () => void
}) {
  const [filter, setFilter] = useState('')
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          size="small"
          placeholder="Filter tables..."
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          slotProps={{ htmlInput: { 'aria-label': 'Filter tables' } }}
          sx={{ flex: 1 }}
        />
        <Tooltip title="Reload schema">
          <IconButton aria-label="Reload schema" onClick={props.onReload}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      <Tables {...props} filter={filter} />
    </Stack>
  )
}

function Tables(props: {
  schema: SourceSchema
  filter: string
  selected: TableRef | null
  onTable: (table: TableRef) => void
}) {
  const { schema } = props
  if (schema.kind === 'none') return null
  if (schema.kind === 'loading')
    return <Typography color="text.secondary">Loading schema...</Typography>
  if (schema.kind === 'error')
    return (
      <Alert severity="error" sx={{ wordBreak: 'break-word' }}>
        {schema.text}
      </Alert>
    )
  const hideSchema = everyTableIsPublic(schema.tables)
  const shown = filterTables(schema.tables, props.filter)
  if (shown.length === 0)
    return <Typography color="text.secondary">No tables</Typography>
  return (
    <List
      dense
      aria-label="Tables"
      sx={{ maxHeight: '60vh', overflowY: 'auto' }}
    >
      {shown.map((table) => (
        <ListItemButton
          key={JSON.stringify([table.schema, table.name])}
          selected={sameTable(props.selected, table)}
          onClick={() => props.onTable(table)}
        >
          <ListItemText
            primary={tableLabel(table, hideSchema)}
            slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
          />
        </ListItemButton>
      ))}
    </List>
  )
}
