// The admin tool's claimable sources: `claimable-sources create --database-url URL` registers one
// (the guard and readiness check as for the public API) and prints its claim id and claim URL;
// `claimable-sources list` lists them. The CLI commands and the /api/admin routes are both here,
// registered by run.ts and routes.ts. The claim URL's origin is PUBLIC_URL, else (the CLI, in
// local mode) http://HOST:PORT as `npm start` listens; over HTTP, the server's own origin.
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { Hono } from 'hono'
import { z } from 'zod'
import {
  claimLinkSchema,
  claimPagePath,
} from '../../shared/claimable-sources.ts'
import { regionSchema } from '../../shared/sources.ts'
import { listClaims, type ClaimableListing } from './claimable-sources.ts'
import type { Db } from '../platform/db/database.ts'
import { deriveKey, loadSecret } from '../platform/crypto/secret.ts'
import { cliOrigin } from '../admin/origin.ts'
import type { Env } from '../platform/env.ts'
import { ownOrigin, type AppEnv } from '../platform/http/context.ts'
import { createClaimableSource, UNCLAIMED_FULL_MESSAGE } from './create.ts'
import { databaseUrlSchema } from '../../shared/validation.ts'
import { systemResolver } from '../validation/guard.ts'
import { AdminError, parseWith } from '../admin/operations.ts'
import { adminBody } from '../admin/request-body.ts'

const createSchema = z.strictObject({
  database_url: databaseUrlSchema.trim().min(1, 'database_url is required'),
  region: regionSchema.default('us-east-1'),
  claim_link: claimLinkSchema.optional(),
})
type CreateInput = z.infer<typeof createSchema>

type Created = { claim_id: string; source_id: string; claim_url: string }

type Context_ = {
  env: Env
  key: Buffer
  /** The origin the claim URL is on. */
  origin: string
  instanceId: string
}

async function create(
  db: Db,
  input: CreateInput,
  context: Context_,
): Promise<Created> {
  const outcome = await createClaimableSource(
    db,
    context.key,
    {
      databaseUrl: input.database_url,
      region: input.region,
      claimLink: input.claim_link ?? null,
    },
    {
      checks: {
        allowPrivate: context.env.allowPrivateDatabaseTargets,
        resolve: systemResolver,
      },
      instanceId: context.instanceId,
      maxUnclaimed: context.env.MAX_UNCLAIMED_SOURCES,
    },
  )
  // The URL or its database cannot be used: the input, as the public API's 400 says.
  if (outcome.kind === 'refused')
    throw new AdminError('invalid', outcome.message)
  if (outcome.kind === 'full')
    throw new AdminError('conflict', UNCLAIMED_FULL_MESSAGE)
  // The operator's creates have no shares per address or database; typed for completeness.
  if (outcome.kind === 'limited')
    throw new AdminError('conflict', outcome.message)
  return {
    claim_id: outcome.claimId,
    source_id: outcome.sourceId,
    claim_url: new URL(
      claimPagePath(outcome.claimId),
      context.origin,
    ).toString(),
  }
}

/** The CLI has no server around it: it reads the secret the server uses (secret.ts). */
async function cliContext(env: Env): Promise<Context_> {
  const dataDir = resolve(env.DATA_DIR)
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  const secret = await loadSecret(env.SLUICE_SECRET, dataDir)
  return {
    env,
    key: deriveKey(secret, 'source-passwords'),
    origin: cliOrigin(env),
    instanceId: 'admin',
  }
}

const listingLine = (c: ClaimableListing) =>
  `${c.claim_id}  ${c.state}  ${c.region}  ${c.database ?? '-'}  ` +
  (c.claimed_at
    ? `claimed into team ${c.team_id ?? '(deleted)'}`
    : `unclaimed, expires ${c.expires_at}`)

type Values = Record<string, string | undefined>

/** The CLI's commands, registered in run.ts. */
export const claimableSourceCommands = {
  'claimable-sources create': {
    options: ['database-url', 'region', 'claim-link'],
    // The admin tool's own database is DATABASE_URL: the source's needs another name.
    secrets: [{ name: 'database-url', variable: 'SOURCE_DATABASE_URL' }],
    parse: (v: Values) =>
      parseWith(createSchema, {
        database_url: v['database-url'],
        region: v.region,
        claim_link: v['claim-link'],
      }),
    run: async (db: Db, input: CreateInput, _origin: string, env: Env) =>
      create(db, input, await cliContext(env)),
    text: (c: Created) =>
      `Created claimable source ${c.source_id}\nClaim id: ${c.claim_id}\nClaim URL: ${c.claim_url}`,
  },
  'claimable-sources list': {
    options: [],
    parse: () => ({}),
    run: (db: Db) => listClaims(db),
    text: (claims: ClaimableListing[]) =>
      claims.length
        ? claims.map(listingLine).join('\n')
        : 'No claimable sources.',
  },
}

/** /api/admin/claimable-sources, mounted by routes.ts behind the admin token. */
export const claimableSourceAdminRoutes = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { deps } = c.var
    const input = parseWith(createSchema, await adminBody(c))
    const created = await create(deps.db, input, {
      env: deps.env,
      key: deps.keys['source-passwords'],
      origin: ownOrigin(deps.env, c.req.url),
      instanceId: deps.sources.instanceId,
    })
    deps.sources.kick()
    return c.json(created, 201)
  })
  .get('/', async (c) => c.json(await listClaims(c.var.deps.db)))
