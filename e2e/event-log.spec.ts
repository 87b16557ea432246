// A source's event log: times to the second with the full timestamp on hover.
import { expect, test } from './support/fixtures.ts'
import { addSourceWithKnownEvent, KNOWN_EVENT } from './support/event-logs.ts'

// Fixed, so the texts of times are known.
test.use({ timezoneId: 'UTC', locale: 'en-US' })

test('event times show seconds, and the full timestamp on hover', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  const { teamId, sourceId } = await addSourceWithKnownEvent(
    page.request,
    baseURL ?? '',
  )
  await page.goto(`/teams/${teamId}/${sourceId}`)
  const row = page
    .getByRole('table', { name: 'Event Logs' })
    .getByRole('row')
    .filter({ hasText: KNOWN_EVENT.name })
  const time = row.locator('time')
  await expect(time).toHaveText('Mar 5, 2024, 2:07:09 PM')
  await expect(time).toHaveAttribute('datetime', KNOWN_EVENT.emittedAt)
  await expect(time).toHaveAttribute(
    'title',
    'Tuesday, March 5, 2024 at 2:07:09 PM UTC (2024-03-05T14:07:09.250Z)',
  )
})
