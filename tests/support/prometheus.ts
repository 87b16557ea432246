// Reads Prometheus' text format in tests: the samples of a metric whose labels include some.
export type Sample = { labels: Record<string, string>; value: number }

export function samples(text: string, name: string): Sample[] {
  const found: Sample[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(
      /(\w+)="((?:[^"\\]|\\.)*)"/g,
    ))
      if (key !== undefined) labels[key] = value ?? ''
    found.push({ labels, value: Number(match[3]) })
  }
  return found
}

/** The value of the one sample whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = samples(text, name).filter((sample) =>
    Object.entries(labels).every(
      ([key, value]) => sample.labels[key] === value,
    ),
  )
  if (matching.length > 1)
    throw new Error(`${matching.length} samples of ${name} match`)
  return matching[0]?.value
}
