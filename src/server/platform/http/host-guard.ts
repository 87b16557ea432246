// DNS rebinding guard for local mode. A page on an attacker's domain can rebind its name to
// 127.0.0.1 and then talk to a Sluice on this machine as same-origin: the request names the
// attacker's host in Host and Origin alike, so only the Host tells it apart. Local mode
// answers only under names that cannot be rebound (loopback names and addresses), the name
// the operator gave in PUBLIC_URL, and the address it was told to listen on. Hosted mode runs
// behind PUBLIC_URL and a proxy that routes by name, and is left to them.
import { isIP } from 'node:net'
import { createMiddleware } from 'hono/factory'
import type { Env } from '../env.ts'
import type { AppEnv } from './context.ts'

// Listening on every interface says nothing about the name clients will use.
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]'])

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true
  if (hostname === '[::1]') return true
  return isIP(hostname) === 4 && hostname.startsWith('127.')
}

/** The Host names (without port) a local-mode server answers to besides loopback ones. */
function configuredHosts(env: Env): Set<string> {
  const hosts = new Set<string>()
  if (env.PUBLIC_URL) hosts.add(new URL(env.PUBLIC_URL).hostname)
  const listen = env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST
  if (!WILDCARDS.has(listen)) hosts.add(listen.toLowerCase())
  return hosts
}

export const localHostsOnly = (env: Env) => {
  if (env.SLUICE_MODE !== 'local') return createMiddleware((_c, next) => next())
  const allowed = configuredHosts(env)
  return createMiddleware<AppEnv>(async (c, next) => {
    const { hostname } = new URL(c.req.url)
    if (isLoopback(hostname) || allowed.has(hostname)) return next()
    // 421 Misdirected Request: this server is not the one for that name.
    return c.json(
      {
        message:
          'This Sluice runs in local mode and answers only at localhost. To reach it under another name, set PUBLIC_URL to that address.',
      },
      421,
    )
  })
}
