// POST /api/v1/onboarding-intent: the /welcome form's answer. A failed parse answers
// the ZodError body the page maps onto its fields, not the generic 400 of http/json.ts.
import { Hono } from 'hono'
import {
  onboardingIntentSchema,
  zodErrorBody,
} from '../../shared/onboarding.ts'
import { requireUser } from '../auth/middleware.ts'
import { saveOnboardingIntent } from './onboarding.ts'
import { bodyTooLarge } from '../platform/http/body-limit.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { safeParseRequest } from '../platform/http/nul.ts'

export const onboardingRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post('/', async (c) => {
    let raw: unknown
    try {
      raw = await c.req.json()
    } catch (error) {
      if (bodyTooLarge(error)) throw error
      return c.json({ message: 'Request body must be JSON' }, 400)
    }
    const parsed = safeParseRequest(onboardingIntentSchema, raw)
    if (!parsed.success) return c.json(zodErrorBody(parsed.error), 400)
    await saveOnboardingIntent(c.var.deps.db, c.var.user.id, parsed.data)
    return c.json(parsed.data)
  })
