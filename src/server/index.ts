// The only place that listens. Starts Sluice and stops it cleanly on SIGINT/SIGTERM.
import { serve } from '@hono/node-server'
import { EnvError, readEnv } from './platform/env.ts'
import { createLogger } from './platform/log.ts'
import { metricsApp } from '../engine/index.ts'
import { start } from './start.ts'
import { localOrigin, recordListeningOrigin } from './admin/origin.ts'

/**
 * An idle keep-alive connection stays open 65 s, not Node's 5: a client (a browser keeps one
 * for minutes, a load balancer 60 s) that sends on one just as the server closes it gets a
 * reset, and a DELETE or POST is not retried (seen in an e2e run: ECONNRESET on a DELETE).
 * The headers' limit must exceed it, or Node cuts the next request's headers short.
 */
const KEEP_ALIVE = { keepAliveTimeout: 65_000, headersTimeout: 66_000 }

/** A host as a URL writes it: IPv6 addresses in brackets. */
const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host)

async function main() {
  const env = readEnv()
  const log = createLogger(env.LOG_LEVEL, env.LOG_FORMAT)
  const sluice = await start(env, log)
  const server = serve(
    {
      fetch: sluice.app.fetch,
      port: env.PORT,
      hostname: env.HOST,
      serverOptions: KEEP_ALIVE,
    },
    (info) => {
      log.info(
        `Sluice is running on ${env.PUBLIC_URL ?? `http://${urlHost(env.HOST)}:${info.port}`}`,
      )
      // The admin tool's links point here (admin/origin.ts).
      try {
        recordListeningOrigin(env, localOrigin(env, info.port))
      } catch (error) {
        log.warn('could not record the server address for the admin tool', {
          error: String(error),
        })
      }
      if (env.localLoginExposed)
        log.warn(
          'DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: anyone who reaches this server can sign in as any email address',
        )
      else if (env.localLoginEnabled)
        log.info(
          env.githubEnabled || env.googleEnabled
            ? 'local sign-in with a name and email is on (LOCAL_LOGIN=true)'
            : 'local mode: sign in with a name and email (no OAuth provider configured)',
        )
    },
  )
  const metrics =
    sluice.metrics && env.METRICS_PORT
      ? serve(
          {
            fetch: metricsApp(sluice.metrics).fetch,
            port: env.METRICS_PORT,
            hostname: env.METRICS_HOST,
          },
          (info) =>
            log.info(
              `metrics on http://${urlHost(env.METRICS_HOST)}:${info.port}/metrics`,
            ),
        )
      : null
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info(`${signal}: shutting down`)
    server.close()
    metrics?.close()
    sluice
      .stop()
      .then(() => process.exit(0))
      .catch((error: Error) => {
        const causes =
          error instanceof AggregateError
            ? error.errors.map((e: Error) => e.message).join('; ')
            : error.message
        log.error(`shutdown failed: ${causes}`)
        process.exit(1)
      })
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error)
  process.exit(1)
})
