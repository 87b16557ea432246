// `sluice auth login` (docs/using.md): the terminal's calls (public: it has no credential yet)
// and the dashboard's (a signed-in member approving it for a team), their paths and bodies.
import { z } from 'zod'
import { idSchema } from './entities.ts'

/** POST starts a login; POST /{id}/collect is the terminal asking for its token. */
export const CLI_LOGINS_PUBLIC_PATH = '/api/public/cli-logins'
/** GET /{id} and POST /{id}/approve, for a signed-in member. */
export const CLI_LOGINS_PATH = '/api/v1/cli-logins'
export const cliLoginPath = (id: string) =>
  `${CLI_LOGINS_PATH}/${encodeURIComponent(id)}`
export const cliLoginApprovePath = (id: string) => `${cliLoginPath(id)}/approve`

/** The dashboard page a terminal sends its user to. */
export const cliLoginPagePath = (id: string) => `/cli-login/${id}`

const MACHINE_MAX_LENGTH = 100

export const startCliLoginRequestSchema = z.strictObject({
  machine: z.string().trim().min(1).max(MACHINE_MAX_LENGTH).optional(),
})

export const collectCliLoginRequestSchema = z.strictObject({
  poll_secret: z.string().min(1).max(200),
})

export const approveCliLoginRequestSchema = z.strictObject({
  team_id: idSchema,
})

/** What the dashboard shows of a login: enough to check it is the user's own terminal. */
export const cliLoginSchema = z.object({
  id: idSchema,
  user_code: z.string(),
  machine: z.string(),
  expires_at: z.string(),
  state: z.enum(['pending', 'approved', 'expired']),
})
export type CliLogin = z.infer<typeof cliLoginSchema>

export const approveCliLoginResponseSchema = z.object({
  id: idSchema,
  team_id: idSchema,
})
