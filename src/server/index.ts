// The only place that listens. Starts Sluice and stops it cleanly on SIGINT/SIGTERM.
import { serve } from '@hono/node-server'
import { EnvError, readEnv } from './env.ts'
import { createLogger } from './log.ts'
import { start } from './start.ts'

async function main() {
  const env = readEnv()
  const log = createLogger(env.LOG_LEVEL)
  const sluice = await start(env, log)
  const server = serve(
    { fetch: sluice.app.fetch, port: env.PORT, hostname: env.HOST },
    (info) => {
      const host = env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST
      log.info(
        `Sluice is running on ${env.PUBLIC_URL ?? `http://${host}:${info.port}`}`,
      )
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
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info(`${signal}: shutting down`)
    server.close()
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
