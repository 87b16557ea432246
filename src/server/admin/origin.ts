// Where the links the admin tool prints point: PUBLIC_URL when set; else the address the
// running server (or the last one) listens on, which it records in DATA_DIR as it starts,
// since the tool, a process of its own, may not be given the server's PORT; else
// http://localhost:PORT.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Env } from '../platform/env.ts'
import { ownOrigin } from '../platform/http/context.ts'

const ORIGIN_FILE = 'server-origin'

/** The server's own address, once it listens (index.ts): private, like all of DATA_DIR. */
export function recordListeningOrigin(env: Env, origin: string): void {
  writeFileSync(join(env.DATA_DIR, ORIGIN_FILE), `${origin}\n`, { mode: 0o600 })
}

function recordedOrigin(env: Env): string | null {
  try {
    const text = readFileSync(join(env.DATA_DIR, ORIGIN_FILE), 'utf8').trim()
    return URL.canParse(text) ? new URL(text).origin : null
  } catch {
    return null
  }
}

/** Where a server listening on HOST and `port` is reached from this machine. */
export function localOrigin(env: Env, port: number): string {
  const host = ['0.0.0.0', '::'].includes(env.HOST) ? 'localhost' : env.HOST
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

/** The server's own origin, for links it sends (alerts): its env says where it listens. */
export const serverOrigin = (env: Env): string =>
  env.PUBLIC_URL ? ownOrigin(env, env.PUBLIC_URL) : localOrigin(env, env.PORT)

/** The origin of links printed by the admin tool (setup links, claim URLs). */
export const cliOrigin = (env: Env): string =>
  env.PUBLIC_URL
    ? ownOrigin(env, env.PUBLIC_URL)
    : (recordedOrigin(env) ?? localOrigin(env, env.PORT))
