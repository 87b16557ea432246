// States the app expects are not errors: the console stays clean (the fixture fails
// on any error line) when a URL the server would refuse is validated, and when a source whose
// page is open is deleted.
import pg from 'pg'
import { VALIDATE_DATABASE_URL_PATH } from '../src/shared/validation.ts'
import { addSourceWithKnownEvent, KNOWN_EVENT } from './support/event-logs.ts'
import { expect, test } from './support/fixtures.ts'
import { controlPlaneUrl } from './support/source-databases.ts'
import { panelOf, submit, VALIDATION_PATH } from './support/validation-page.ts'

const BAD_PORT = 'postgresql://app:secret@db.example.com:abc/shop'
const BAD_PORT_MESSAGE = 'The port must be a number from 1 to 65535.'

test('a URL the server refuses shows its message on the validate page, with no console error', async ({
  page,
  baseURL,
}) => {
  // The API's answer stays what API clients rely on: a 400 with the message.
  const api = await page.request.post(VALIDATE_DATABASE_URL_PATH, {
    data: { database_url: BAD_PORT },
    headers: { origin: baseURL ?? '' },
  })
  expect(api.status()).toBe(400)
  expect(await api.json()).toEqual({ message: BAD_PORT_MESSAGE })

  await page.goto(VALIDATION_PATH)
  await submit(page, BAD_PORT)
  await expect(
    page.getByRole('alert').filter({ hasText: BAD_PORT_MESSAGE }),
  ).toBeVisible()
  await expect(panelOf(page)).toHaveCount(0)
  await expect(
    page.getByRole('button', { name: 'Validate Connection' }),
  ).toBeEnabled()
})

test('a source deleted while its page is open: Source not found, and its event log stops without a 404', async ({
  page,
  signIn,
  baseURL,
}) => {
  const user = await signIn()
  const { teamId, sourceId } = await addSourceWithKnownEvent(
    page.request,
    baseURL ?? '',
  )
  const eventLogAnswers: number[] = []
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/v1/source-event-logs')
      eventLogAnswers.push(response.status())
  })
  await page.goto(`/teams/${teamId}/${sourceId}`)
  await expect(
    page.getByText(KNOWN_EVENT.name, { exact: true }).first(),
  ).toBeVisible()

  const control = new pg.Client({ connectionString: controlPlaneUrl() })
  await control.connect()
  try {
    // As a forget does: the row goes in one transaction, and its event logs with it.
    await control.query('delete from sources where id = $1', [sourceId])
    await expect(
      page.getByRole('heading', { name: 'Source not found' }),
    ).toBeVisible()
    // A later change reaching the page: whatever the event-log stream asked after the
    // deletion has been answered by now.
    await control.query('update teams set name = $2 where id = $1', [
      teamId,
      `${user.name}'s renamed team`,
    ])
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
        name: `${user.name}'s renamed team`,
      }),
    ).toBeVisible()
  } finally {
    await control.end()
  }
  expect(eventLogAnswers).not.toContain(404)
})
