// POST /api/v1/onboarding-intent: the one shared schema on the server, the ZodError body the
// /welcome page maps onto its fields (through the page's own fieldErrorsOf), and the stored row.
import { beforeAll, describe, expect, it } from 'vitest'
import { getOnboardingIntent } from '../../src/server/teams/onboarding.ts'
import {
  fieldErrorsOf,
  onboardingIntentSchema,
} from '../../src/shared/onboarding.ts'
import { Browser, buildApp, signInLocally, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
let app: App
beforeAll(() => {
  app = buildApp(database.db)
})

const PATH = '/api/v1/onboarding-intent'
const valid = {
  company: 'Acme',
  website: 'acme.example',
  projectDescription: 'A live inventory app',
}

describe('the onboarding intent', () => {
  it('is stored for the signed-in user, and answering again replaces it', async () => {
    const { browser, user } = await signInLocally(app)
    const response = await browser.postJson(PATH, {
      ...valid,
      company: '  Acme  ',
    })
    expect(response.status).toBe(200)
    expect(await getOnboardingIntent(database.db, user.id)).toEqual(valid)

    await browser.postJson(PATH, { ...valid, company: 'Acme 2' })
    expect(await getOnboardingIntent(database.db, user.id)).toMatchObject({
      company: 'Acme 2',
    })
  })

  it('answers the ZodError body, which the page maps by the first path element', async () => {
    const { browser } = await signInLocally(app)
    const bad = { company: '', website: ' ', projectDescription: 'abc' }
    const response = await browser.postJson(PATH, bad)
    expect(response.status).toBe(400)
    const body: unknown = await response.json()
    expect(body).toEqual({
      error: {
        name: 'ZodError',
        issues: [
          { path: ['company'], message: 'Company is required' },
          { path: ['website'], message: 'Website is required' },
          {
            path: ['projectDescription'],
            message: 'Tell us a little more (at least 5 characters)',
          },
        ],
      },
    })
    // The browser's side of the same schema says the same before sending.
    const client = onboardingIntentSchema.safeParse(bad)
    expect(client.success).toBe(false)
    expect(fieldErrorsOf(body)).toEqual({
      company: 'Company is required',
      website: 'Website is required',
      projectDescription: 'Tell us a little more (at least 5 characters)',
    })
  })

  it('bounds every field', async () => {
    const { browser } = await signInLocally(app)
    const response = await browser.postJson(PATH, {
      ...valid,
      projectDescription: 'x'.repeat(2001),
    })
    expect(response.status).toBe(400)
    expect(fieldErrorsOf(await response.json())).toEqual({
      projectDescription: 'At most 2000 characters',
    })
    const missing = await browser.postJson(PATH, {})
    expect(Object.keys(fieldErrorsOf(await missing.json()) ?? {})).toEqual([
      'company',
      'website',
      'projectDescription',
    ])
  })

  it('needs a session and a same-origin request', async () => {
    const anonymous = await new Browser(app).postJson(PATH, valid)
    expect(anonymous.status).toBe(401)
    const { browser } = await signInLocally(app)
    const crossSite = await browser.request(PATH, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify(valid),
    })
    expect(crossSite.status).toBe(403)
  })

  it('is not a ZodError body for anything but a failed parse', () => {
    expect(fieldErrorsOf({ message: 'Internal server error' })).toBeNull()
    expect(fieldErrorsOf('Bad Gateway')).toBeNull()
  })
})
