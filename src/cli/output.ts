// What the CLI prints: JSON exactly as the API answered (`--json`, for scripts), or text for
// people: a table for lists, `field: value` lines for one record.

export type Out = { write(text: string): void }

export function printJson(out: Out, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`)
}

const cell = (value: unknown) =>
  value === null || value === undefined ? '-' : String(value)

/** Columns padded to their widest cell; `-` for a missing value. */
export function printTable(
  out: Out,
  rows: Array<Record<string, unknown>>,
  columns: string[],
): void {
  if (rows.length === 0) {
    out.write('(none)\n')
    return
  }
  const cells = [
    columns,
    ...rows.map((row) => columns.map((c) => cell(row[c]))),
  ]
  const widths = columns.map((_, i) =>
    Math.max(...cells.map((line) => (line[i] as string).length)),
  )
  for (const line of cells)
    out.write(
      `${line
        .map((text, i) => text.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd()}\n`,
    )
}

export function printRecord(
  out: Out,
  record: Record<string, unknown>,
  fields: string[],
): void {
  const width = Math.max(...fields.map((f) => f.length))
  for (const field of fields)
    out.write(`${`${field}:`.padEnd(width + 1)} ${cell(record[field])}\n`)
}
