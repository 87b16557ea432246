// Reads docker-compose.yml as compose would: YAML with merge keys (`<<: *anchor`) and `${VAR}`
// interpolation from a .env's values, `:?` stopping on a missing one and `:-` giving a default.
import { parse } from 'yaml'

type ComposeService = {
  image?: string
  build?: unknown
  command?: string[]
  environment?: Record<string, string | number | boolean | null>
  volumes?: string[]
  ports?: string[]
  depends_on?: unknown
}
export type ComposeFile = {
  services: Record<string, ComposeService>
  volumes?: Record<string, unknown>
}

export function parseCompose(text: string): ComposeFile {
  return parse(text, { merge: true, maxAliasCount: 100 }) as ComposeFile
}

/** `${NAME}`, `${NAME:-default}` and `${NAME:?message}` from `vars`, as compose does. */
function interpolate(value: string, vars: Record<string, string>) {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (_all, name: string, kind?: string, rest?: string) => {
      const given = vars[name]
      if (given) return given
      if (kind === '?') throw new Error(`${name}: ${rest ?? 'required'}`)
      return kind === '-' ? (rest ?? '') : ''
    },
  )
}

/** A service's environment with every value interpolated. */
export function serviceEnv(
  compose: ComposeFile,
  service: string,
  vars: Record<string, string>,
): Record<string, string> {
  const env = compose.services[service]?.environment ?? {}
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      interpolate(String(v ?? ''), vars),
    ]),
  )
}
