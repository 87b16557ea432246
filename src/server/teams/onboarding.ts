// Onboarding intents: what a user said they are building (the /welcome form). The column keeps
// its first name, description; the API's projectDescription is mapped here.
import type { OnboardingIntent } from '../../shared/onboarding.ts'
import type { Db } from '../platform/db/database.ts'

/** Stores the user's answer; answering again (from /preferences) replaces it. */
export async function saveOnboardingIntent(
  db: Db,
  userId: string,
  intent: OnboardingIntent,
): Promise<void> {
  await db.query(
    `insert into onboarding_intents (user_id, company, website, description)
     values ($1, $2, $3, $4)
     on conflict (user_id) do update set company = excluded.company,
       website = excluded.website, description = excluded.description`,
    [userId, intent.company, intent.website, intent.projectDescription],
  )
}

export async function getOnboardingIntent(
  db: Db,
  userId: string,
): Promise<OnboardingIntent | null> {
  const { rows } = await db.query<OnboardingIntent>(
    `select company, website, description as "projectDescription"
       from onboarding_intents
      where user_id = $1`,
    [userId],
  )
  return rows[0] ?? null
}
