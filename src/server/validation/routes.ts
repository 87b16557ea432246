// POST /api/public/validate-pg-database-url: the public readiness check. 200 with the result
// even when checks fail, 400 for a URL we will not check, 429 past the limits.
import { Hono } from 'hono'
import { validateDatabaseRequestSchema } from '../../shared/validation.ts'
import { clientIp } from '../platform/http/client-ip.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { checkDatabase } from './check.ts'
import { RefusedTargetError } from './guard.ts'
import { DatabaseUrlError } from '../../shared/postgres-url.ts'
import type { DatabaseCheckSettings } from './settings.ts'
import { createCheckLimiter, tooManyChecks } from './rate-limit.ts'

export function validationRoutes(settings: DatabaseCheckSettings) {
  const limiter = createCheckLimiter('public-checks', settings.limits)
  return new Hono<AppEnv>().post('/', async (c) => {
    const admission = await limiter.admit(c.var.deps.db, clientIp(c))
    if (!admission.admitted) return tooManyChecks(admission.retryAfterSeconds)
    try {
      const body = await readJson(c, validateDatabaseRequestSchema)
      if (!body.success) return body.response
      const result = await checkDatabase(body.data.database_url, {
        allowPrivate: c.var.deps.env.allowPrivateDatabaseTargets,
        resolve: settings.resolve,
      })
      return c.json(result)
    } catch (error) {
      if (
        error instanceof DatabaseUrlError ||
        error instanceof RefusedTargetError
      )
        return c.json({ message: error.message }, 400)
      throw error
    } finally {
      admission.release()
    }
  })
}
