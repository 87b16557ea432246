// What the readiness check is given from outside: its resolver (tests stub DNS) and its limits
// (tests tighten them). Its own module so the app's context can name it without importing the
// routes that use the context.
import { systemResolver, type Resolver } from './guard.ts'
import { DEFAULT_CHECK_LIMITS, type CheckLimits } from './rate-limit.ts'

export type DatabaseCheckSettings = { resolve: Resolver; limits: CheckLimits }

export const DEFAULT_DATABASE_CHECKS: DatabaseCheckSettings = {
  resolve: systemResolver,
  limits: DEFAULT_CHECK_LIMITS,
}
