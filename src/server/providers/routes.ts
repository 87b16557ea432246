// /api/public/supabase and /api/public/neon: the wizard's provider lists, Neon's
// validate and enable-logical-replication. Every route is the signed-in user's own connection.
import { Hono } from 'hono'
import { z } from 'zod'
import { requireUser } from '../auth/middleware.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readQuery } from '../platform/http/json.ts'
import { checkDatabase } from '../validation/check.ts'
import { RefusedTargetError } from '../validation/guard.ts'
import { createCheckLimiter, tooManyChecks } from '../validation/rate-limit.ts'
import type { DatabaseCheckSettings } from '../validation/settings.ts'
import { DatabaseUrlError } from '../../shared/postgres-url.ts'
import {
  answer,
  apiFor,
  postgresName,
  providerId,
  readParams,
} from './context.ts'
import * as neon from './neon.ts'
import * as supabase from './supabase.ts'
import { UpstreamError } from './upstream.ts'

export const supabaseRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/organizations', (c) =>
    answer(c, 'supabase', () =>
      supabase.listOrganizations(apiFor(c, 'supabase')),
    ),
  )
  .get('/organizations/:orgId/projects', async (c) => {
    const params = readParams(c, { orgId: providerId })
    if (!params.ok) return params.response
    return answer(c, 'supabase', async () => {
      const projects = await supabase.listProjects(
        apiFor(c, 'supabase'),
        params.data.orgId,
      )
      if (!projects)
        throw new UpstreamError('No such Supabase organization.', 404)
      return projects
    })
  })

const project = { projectId: providerId }
const branch = { projectId: providerId, branchId: providerId }

export function neonRoutes(settings: DatabaseCheckSettings) {
  // The validate route runs the readiness check: the same per-client limits as the public one.
  const limiter = createCheckLimiter('neon-validate-checks', settings.limits)
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/projects', (c) =>
      answer(c, 'neon', () => neon.listProjects(apiFor(c, 'neon'))),
    )
    .get('/projects/:projectId/branches', (c) => {
      const params = readParams(c, project)
      if (!params.ok) return params.response
      return answer(c, 'neon', () =>
        neon.listBranches(apiFor(c, 'neon'), params.data.projectId),
      )
    })
    .get('/projects/:projectId/branches/:branchId/databases', (c) => {
      const params = readParams(c, branch)
      if (!params.ok) return params.response
      const { projectId, branchId } = params.data
      return answer(c, 'neon', () =>
        neon.listDatabases(apiFor(c, 'neon'), projectId, branchId),
      )
    })
    .get('/projects/:projectId/branches/:branchId/roles', (c) => {
      const params = readParams(c, branch)
      if (!params.ok) return params.response
      const { projectId, branchId } = params.data
      return answer(c, 'neon', () =>
        neon.listRoles(apiFor(c, 'neon'), projectId, branchId),
      )
    })
    .post(
      '/projects/:projectId/branches/:branchId/databases/:database/validate',
      async (c) => {
        const params = readParams(c, { ...branch, database: postgresName })
        if (!params.ok) return params.response
        const query = readQuery(c, z.object({ role: postgresName }))
        if (!query.success) return query.response
        const admission = await limiter.admit(
          c.var.deps.db,
          `user:${c.var.user.id}`,
        )
        if (!admission.admitted)
          return tooManyChecks(admission.retryAfterSeconds)
        try {
          const { projectId, branchId, database } = params.data
          return await answer(c, 'neon', async () => {
            const uri = await neon.directConnectionUri(
              apiFor(c, 'neon'),
              projectId,
              branchId,
              database,
              query.data.role,
            )
            const validation = await checkDatabase(uri, {
              allowPrivate: c.var.deps.env.allowPrivateDatabaseTargets,
              resolve: settings.resolve,
            })
            return { validation, neon: { connection_uri: uri } }
          })
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
      },
    )
    .post('/projects/:projectId/logical-replication', (c) => {
      const params = readParams(c, project)
      if (!params.ok) return params.response
      return answer(c, 'neon', async () => {
        await neon.enableLogicalReplication(
          apiFor(c, 'neon'),
          params.data.projectId,
          c.var.deps.providerOperations,
        )
        return { enabled: true }
      })
    })
}
