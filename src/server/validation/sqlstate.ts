// What a driver error's code says it came from. Postgres' own errors carry a SQLSTATE; the
// network's do not (Node codes such as EPIPE or EPERM are five capitals too, and their
// messages name addresses). A certificate that does not verify has one of Node's TLS codes.

// SQLSTATE classes: 00-58 (and 2F, 3B, ...), F0, HV, P0 and XX (Postgres' errcodes.txt).
const SQLSTATE = /^(?:[0-5][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/

export function isSqlState(code: string | undefined): code is string {
  return code !== undefined && SQLSTATE.test(code)
}

const TLS_CODES = /CERT|SIGNATURE|ALTNAME|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/

export function isTlsFailure(code: unknown): boolean {
  return typeof code === 'string' && TLS_CODES.test(code)
}
