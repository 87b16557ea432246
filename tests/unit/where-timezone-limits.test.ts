// Time zone lookups are charged to the work budget: a clause naming hundreds of tz database
// zones (an ICU formatter each, some 80 µs) is refused as too costly instead of holding the
// loop, while a handful compile.
import { describe, expect, it } from 'vitest'
import { compileWhere, WhereError } from '../../src/engine/where/index.ts'

const TOO_COSTLY =
  'where clause is too costly to evaluate (its work budget is exceeded)'

const zones = Intl.supportedValuesOf('timeZone').filter((z) => z.includes('/'))
const clause = (names: string[]) =>
  names
    .map((z) => `timezone('${z}', '2024-07-01 12:00'::timestamp) IS NULL`)
    .join(' OR ')

describe('time zone lookups', () => {
  it('compiles a clause naming a few zones', async () => {
    const compiled = await compileWhere(
      clause(zones.slice(0, 5)),
      [],
      new Map(),
    )
    expect(compiled.matches({})).toBe(false)
  })

  it('refuses a clause naming hundreds of zones as too costly', async () => {
    expect(zones.length).toBeGreaterThan(300)
    const error = await compileWhere(
      clause(zones.slice(5, 305)),
      [],
      new Map(),
    ).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(WhereError)
    expect((error as WhereError).message).toBe(TOO_COSTLY)
  })
})
