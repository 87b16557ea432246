// A source's event log: times to the second with the full timestamp on hover, and a layout
// that reads on a phone.
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

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('each event reads without scrolling sideways', async ({
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
    const log = page.getByRole('region', { name: 'Event Logs' })
    const parts = [
      log.getByText(KNOWN_EVENT.name, { exact: true }),
      log.getByText('Mar 5, 2024, 2:07:09 PM', { exact: true }),
      log.getByText(`reason: ${KNOWN_EVENT.reason}`, { exact: true }),
    ]
    for (const part of parts) {
      await expect(part).toBeVisible()
      const box = await part.boundingBox()
      expect(box).not.toBeNull()
      // Wholly within the screen's width, as laid out: nothing to scroll sideways for.
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(375)
    }
    // The details get most of the width, not a few characters a line.
    const details = await parts[2]!.boundingBox()
    expect(details!.width).toBeGreaterThanOrEqual(250)
    const pageWidth = await page.evaluate(
      () => document.documentElement.scrollWidth,
    )
    expect(pageWidth).toBeLessThanOrEqual(375)
  })
})
