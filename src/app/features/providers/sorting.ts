// The orders the provider lists are shown in. The server sorts too; sorting again here keeps
// the page right whatever order an answer arrives in.
const collator = new Intl.Collator(undefined, { sensitivity: 'base' })

export function byName<T extends { name: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => collator.compare(a.name, b.name))
}

/** Branches: the primary (Neon's default) first, then by name. */
export function primaryFirst<T extends { name: string; primary: boolean }>(
  items: T[],
): T[] {
  return [...items].sort(
    (a, b) =>
      Number(b.primary) - Number(a.primary) || collator.compare(a.name, b.name),
  )
}
