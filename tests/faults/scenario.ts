// The shape of a fault scenario (docs/development.md, Faults): `npm run faults` runs them and
// prints a table, the quick ones also run in `npm test` (tests/integration/faults-quick.test.ts,
// and e2e/faults.spec.ts for those that drive a browser).

export type FaultResult = {
  /** Source rows the client does not hold, or holds with other values. */
  lost: number
  /** Insert messages past the first for a key (within one shape), plus rows the source lacks. */
  duplicated: number
  /** From the fault's end (restart, heal) until the client matched the source; null: never. */
  recoverMs: number | null
  notes?: string
}

type FaultContext = {
  /** A superuser URL of a Postgres (wal_level=logical) the scenario may add databases to. */
  adminUrl: string
  /** In `npm test`: short faults (a 6 s partition, not 60 s). */
  quick: boolean
  /** Progress lines (the script prints them; tests keep them for a failure). */
  log(line: string): void
}

export type FaultScenario = {
  id: string
  title: string
  /** Short enough (under a minute) for `npm test`. */
  quick: boolean
  /**
   * Drives a dashboard in Chromium against the built app (`npm run build`): `npm test` runs it
   * as a Playwright spec (e2e/faults.spec.ts), after the build, not in vitest.
   */
  browser?: boolean
  /** Throws when the system under test breaks a rule the counts cannot show (e.g. a 409). */
  run(ctx: FaultContext): Promise<FaultResult>
}

/** A fault of the matrix with no scenario yet: the table says so, never "ok". */
export type PlannedFault = { id: string; title: string; notBuilt: true }
