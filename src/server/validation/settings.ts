// What the readiness check may be given from outside: its resolver (tests stub DNS) and its
// limits (tests tighten them). Its own module so the app's context can name it without
// importing the routes that use the context.
import type { Resolver } from './guard.ts'
import type { CheckLimits } from './rate-limit.ts'

export type DatabaseCheckSettings = { resolve?: Resolver; limits?: CheckLimits }
