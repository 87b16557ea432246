// Tells Postgres' own errors from the network's: only the former carry a SQLSTATE. Node codes
// such as EPIPE or EPERM are five capitals too, and their messages name addresses.

// SQLSTATE classes: 00-58 (and 2F, 3B, ...), F0, HV, P0 and XX (Postgres' errcodes.txt).
const SQLSTATE = /^(?:[0-5][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/

export function isSqlState(code: string | undefined): code is string {
  return code !== undefined && SQLSTATE.test(code)
}
