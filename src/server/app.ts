// createApp builds the whole HTTP app without listening, so tests call it in-process.
import { Hono, type Context } from 'hono'
import { INGEST_PATH } from '../shared/analytics.ts'
import { CLAIMABLE_SOURCES_PATH } from '../shared/claimable-sources.ts'
import {
  CLI_LOGINS_PATH,
  CLI_LOGINS_PUBLIC_PATH,
} from '../shared/cli-logins.ts'
import { LIVE_WATCH_PATH } from '../shared/live-watch.ts'
import { ONBOARDING_INTENT_PATH } from '../shared/onboarding.ts'
import { SETUP_FORM_PUBLIC_PATH } from '../shared/setup-forms.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../shared/validation.ts'
import { ingestRoutes } from './analytics/ingest.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import { ADMIN_API_PATH, adminRoutes, isAdminPath } from './admin/routes.ts'
import { claimableSourceRoutes } from './claimable-sources/routes.ts'
import { cliLoginRoutes, publicCliLoginRoutes } from './cli-logins/routes.ts'
import { onboardingRoutes } from './teams/onboarding-routes.ts'
import { sourceRoutes } from './sources/routes.ts'
import { providerConnectionRoutes } from './providers/connection-routes.ts'
import { teamRoutes } from './teams/routes.ts'
import { userRoutes } from './auth/user-routes.ts'
import { requireUser } from './auth/middleware.ts'
import { bearerAuth, bearerToken } from './api-tokens/bearer.ts'
import { authRoutes } from './auth/routes.ts'
import { SessionRequests } from './auth/session-requests.ts'
import { gatewayRoutes } from './gateway/routes.ts'
import { sourceShapeRoutes } from './gateway/source-shapes.ts'
import { watchRoutes } from './gateway/watch.ts'
import { limitBodies } from './platform/http/body-limit.ts'
import type { AppDeps, AppEnv } from './platform/http/context.ts'
import { answerError } from './platform/http/errors.ts'
import { localHostsOnly } from './platform/http/host-guard.ts'
import { requestIds } from './platform/http/request-id.ts'
import {
  inlineScriptSources,
  noCrossSite,
  requestLog,
  sameOriginOnly,
  securityHeaders,
} from './platform/http/security.ts'
import { mountSpa, readIndexHtml } from './platform/http/spa.ts'
import { createLimiters } from './platform/limits.ts'
import { httpMetrics } from './platform/ops/http-metrics.ts'
import { readinessRoute } from './platform/ops/readiness.ts'
import { connectRoutes } from './providers/connect-routes.ts'
import { neonRoutes, supabaseRoutes } from './providers/routes.ts'
import { setupFormPublicRoutes } from './setup-links/public-routes.ts'
import { sourceStatusRoutes } from './sources/status-routes.ts'
import { validationRoutes } from './validation/routes.ts'
import {
  ANALYTICS_CONFIG_PATH,
  API_MOUNTS,
  HEALTH_PATH,
  providerAuthPath,
  READY_PATH,
} from '../shared/api-routes.ts'

const isApiTokenRequest = (c: Context) =>
  c.req.path.startsWith('/api/v1/') && bearerToken(c) !== undefined

const isClaimableCreate = (method: string, path: string) =>
  method === 'POST' &&
  (path === CLAIMABLE_SOURCES_PATH || path === `${CLAIMABLE_SOURCES_PATH}/`)

// A terminal starting or collecting `sluice auth login`: no cookie is read, and what it gets is
// for whoever holds the login's poll secret, which no page on another site has.
const isCliLoginCall = (method: string, path: string) =>
  method === 'POST' &&
  (path === CLI_LOGINS_PUBLIC_PATH ||
    path.startsWith(`${CLI_LOGINS_PUBLIC_PATH}/`))

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  const indexHtml = deps.distDir ? readIndexHtml(deps.distDir) : null
  const sessionRequests = new SessionRequests()
  const limiters = createLimiters(deps.db, deps.env, deps.now)
  app.use(async (c, next) => {
    c.set('deps', deps)
    c.set('sessionRequests', sessionRequests)
    await next()
  })
  // Requests are counted only where GET /metrics serves them (METRICS_PORT).
  if (deps.metrics) app.use(httpMetrics(deps.metrics))
  app.use(
    requestIds,
    requestLog,
    securityHeaders(indexHtml ? inlineScriptSources(indexHtml) : []),
    localHostsOnly(deps.env),
    limitBodies,
  )
  // /api/admin is for scripts holding the admin token, which no browser sends on its own: the
  // same-origin rule guards cookie-authenticated requests, and these carry no cookie auth.
  // Creating a claimable source is for starter scripts outside any browser: it reads no cookie
  // and acts for nobody, so in hosted mode a forged cross-site request gains nothing a script
  // could not do itself (its own limits apply). Exactly that request: claiming, which uses the
  // session, is still guarded. In local mode a page on another site could make the server
  // reach what only the user's machine can, so these refuse a browser's cross-site request.
  // A team API token's request to /api/v1 (Authorization: Bearer) is authenticated by that
  // header alone, never by a cookie (api-tokens/bearer.ts), and a browser never adds one to a
  // cross-site request on its own (a page setting it needs CORS, which we never grant): a
  // forged request cannot carry it, so the same-origin rule has nothing to guard. Cookie
  // requests, and a Bearer header anywhere else, still meet it.
  app.use('/api/*', (c, next) => {
    if (
      !isAdminPath(c.req.path) &&
      !isClaimableCreate(c.req.method, c.req.path) &&
      !isCliLoginCall(c.req.method, c.req.path) &&
      !isApiTokenRequest(c)
    )
      return sameOriginOnly(c, next)
    return deps.env.SLUICE_MODE === 'local' ? noCrossSite(c, next) : next()
  })
  app.use('/api/*', async (c, next) => {
    await next()
    // API answers are per user and live; no cache may keep them.
    if (!c.res.headers.has('cache-control'))
      c.header('cache-control', 'no-store')
  })

  // Liveness asks nothing of anyone; readiness asks the control plane (ops/readiness.ts).
  app.get(HEALTH_PATH, (c) => c.json({ status: 'ok' }))
  app.get(READY_PATH, readinessRoute(deps.db))
  // Connecting a provider account shares the sign-in's prefix (and its binding cookie's path);
  // registered first, so these two names never reach the sign-in router's /:provider.
  app.route(providerAuthPath('supabase'), connectRoutes('supabase'))
  app.route(providerAuthPath('neon'), connectRoutes('neon'))
  app.route(API_MOUNTS.auth, authRoutes(limiters.localLogins))
  app.route(API_MOUNTS.supabase, supabaseRoutes)
  app.route(API_MOUNTS.neon, neonRoutes(deps.databaseChecks))
  app.route(ANALYTICS_CONFIG_PATH, analyticsRoutes)
  app.route(VALIDATE_DATABASE_URL_PATH, validationRoutes(deps.databaseChecks))
  app.route(SETUP_FORM_PUBLIC_PATH, setupFormPublicRoutes(deps.databaseChecks))
  app.route(CLAIMABLE_SOURCES_PATH, claimableSourceRoutes(deps.databaseChecks))
  app.route(CLI_LOGINS_PUBLIC_PATH, publicCliLoginRoutes)
  // All of /api/v1 is for a signed-in user, an unknown path too (401 before 404). Each router
  // also requires the user itself; the session is looked up once per request.
  // A Bearer request is a team API token's: it authenticates instead of the cookie, and
  // reaches only the routes its scope names (api-tokens/scope.ts).
  app.use('/api/v1/*', bearerAuth(limiters.apiTokenRequests))
  app.use('/api/v1/*', requireUser)
  // One router per resource, each at its own prefix: none overlaps another, so order is free.
  app.route(API_MOUNTS.users, userRoutes)
  app.route(API_MOUNTS.teams, teamRoutes(limiters.testAlerts))
  app.route(API_MOUNTS.providerConnections, providerConnectionRoutes)
  app.route(ONBOARDING_INTENT_PATH, onboardingRoutes)
  app.route(CLI_LOGINS_PATH, cliLoginRoutes)
  app.route(
    API_MOUNTS.sources,
    sourceRoutes(deps.databaseChecks, limiters.sourceCreates),
  )
  app.route(API_MOUNTS.sourceStatus, sourceStatusRoutes)
  app.route(ADMIN_API_PATH, adminRoutes)
  app.route(API_MOUNTS.shape, sourceShapeRoutes)
  app.route(LIVE_WATCH_PATH, watchRoutes)
  app.route(API_MOUNTS.gateway, gatewayRoutes)
  app.route(INGEST_PATH, ingestRoutes())

  app.onError(answerError(deps.log))
  if (deps.distDir) mountSpa(app, deps.distDir, indexHtml)
  else app.notFound((c) => c.json({ message: 'Not found' }, 404))
  return app
}
