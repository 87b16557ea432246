// Alerts on the team page end to end: a member adds a webhook (a local receiver; local mode
// allows http to loopback), sees its signing secret once, sends a test alert that arrives
// signed with that secret, and sees the attempt in the delivery log, synced from the server;
// a real incident (a source whose database refuses its password) is delivered and logged; an
// email destination mails through the launcher's SMTP server; the thresholds are edited and
// persist.
import { readFileSync } from 'node:fs'
import type { ReceivedMail } from '../tests/support/smtp-server.ts'
import {
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '../tests/support/webhook-receiver.ts'
import { personalTeam } from './support/explorer.ts'
import { expect, test } from './support/fixtures.ts'
import { smtpMailFile } from './support/paths.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
} from './support/source-databases.ts'

let receiver: WebhookReceiver

test.beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
test.afterAll(async () => {
  await receiver.close()
})

test('a webhook added on the team page shows its secret once and logs a signed test alert', async ({
  page,
  signIn,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  await page.goto(`/teams/${team.id}`)
  const alerts = page.getByRole('region', { name: 'Alerts' })
  await expect(
    alerts.getByText('No alert destinations yet.', { exact: false }),
  ).toBeVisible()

  await alerts.getByRole('button', { name: 'Add webhook' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add webhook' })
  await dialog.getByLabel('Webhook URL').fill(receiver.url)
  await dialog.getByRole('button', { name: 'Add webhook' }).click()
  const secret = await dialog
    .getByRole('textbox', { name: 'Signing secret' })
    .inputValue()
  expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/)
  await expect(
    dialog.getByRole('button', { name: 'Copy signing secret' }),
  ).toBeVisible()
  await dialog.getByRole('button', { name: 'Done' }).click()

  const webhooks = alerts.getByRole('table', { name: 'Alert destinations' })
  await expect(
    webhooks.getByRole('cell', { name: receiver.url, exact: true }),
  ).toBeVisible()
  // Shown once: nowhere on the page any more, nor after a reload.
  await expect(page.getByText(secret)).toHaveCount(0)

  await webhooks.getByRole('button', { name: 'Send test alert' }).click()
  const log = alerts.getByRole('table', { name: 'Delivery log' })
  const row = log.getByRole('row').filter({ hasText: 'test_alert' })
  await expect(row).toContainText('Delivered (200)')
  await expect(row).toContainText(receiver.url)
  await expect(row.getByRole('cell').last()).toHaveText('1')

  expect(receiver.received).toHaveLength(1)
  const [request] = receiver.received
  expect(
    verifySignature(
      secret,
      String(request?.headers['sluice-timestamp']),
      request?.body ?? '',
      String(request?.headers['sluice-signature']),
    ),
  ).toBe(true)
  expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
    team_id: team.id,
    event: 'test_alert',
  })

  await page.reload()
  await expect(
    webhooks.getByRole('cell', { name: receiver.url, exact: true }),
  ).toBeVisible()
  await expect(page.getByText(secret)).toHaveCount(0)
})

test('an incident of a real source is delivered and shows in the delivery log', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  const headers = { origin: baseURL ?? '' }
  const added = await page.request.post(
    `/api/v1/teams/${team.id}/alert-destinations`,
    { data: { url: receiver.url }, headers },
  )
  expect(added.status()).toBe(201)
  // A real Postgres that refuses the source's password: the engine gives up (28P01) and the
  // source goes to `error`, which the alert monitor turns into an incident.
  const database = await createSourceDatabase(controlPlaneUrl())
  const url = new URL(database.url)
  url.password = 'not-the-password'
  const created = await page.request.put(
    '/api/v1/sources?skip_validation=true',
    {
      data: {
        region: 'eu-west-1',
        team_id: team.id,
        database_url: url.toString(),
      },
      headers,
    },
  )
  expect(created.status()).toBe(201)
  const { id: sourceId } = (await created.json()) as { id: string }
  try {
    await page.goto(`/teams/${team.id}`)
    const log = page
      .getByRole('region', { name: 'Alerts' })
      .getByRole('table', { name: 'Delivery log' })
    const row = log.getByRole('row').filter({ hasText: 'source_error' })
    await expect(row).toContainText('source_error (firing)')
    await expect(row).toContainText('Delivered (200)')
    await expect(row).toContainText(receiver.url)
    const sent = receiver.received
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
      .filter((p) => p.source_id === sourceId)
    expect(sent).toEqual([
      expect.objectContaining({
        team_id: team.id,
        event: 'source_error',
        state: 'firing',
      }),
    ])
  } finally {
    // Forgotten, not removed: its database never let it make a slot to remove.
    const forgotten = await page.request.delete(
      `/api/v1/sources/${sourceId}?force_delete=true`,
      { headers },
    )
    expect(forgotten.status()).toBe(200)
    await database.drop()
  }
})

test('an email destination mails its test alert through the SMTP server', async ({
  page,
  signIn,
  consoleErrors,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  await page.goto(`/teams/${team.id}`)
  const alerts = page.getByRole('region', { name: 'Alerts' })
  const address = `oncall-${team.id.slice(0, 8)}@example.com`

  await alerts.getByRole('button', { name: 'Add email' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add email' })
  await dialog.getByLabel('Email address').fill('not an address')
  await dialog.getByRole('button', { name: 'Add email' }).click()
  await expect(dialog.getByRole('alert')).toContainText(
    'The email address is not valid',
  )
  await expect(dialog.getByLabel('Email address')).toHaveValue('not an address')
  // The browser logs the refused POST: expected here, so not a failure of the page.
  const refused = (e: string) =>
    e.includes('status of 400') && e.includes('/alert-destinations')
  expect(consoleErrors.filter(refused)).toHaveLength(1)
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !refused(e)),
  )
  await dialog.getByLabel('Email address').fill(address)
  await dialog.getByRole('button', { name: 'Add email' }).click()
  await expect(dialog).toBeHidden()

  const destinations = alerts.getByRole('table', {
    name: 'Alert destinations',
  })
  await expect(
    destinations.getByRole('cell', { name: address, exact: true }),
  ).toBeVisible()
  await destinations.getByRole('button', { name: 'Send test alert' }).click()
  const row = alerts
    .getByRole('table', { name: 'Delivery log' })
    .getByRole('row')
    .filter({ hasText: 'test_alert' })
  await expect(row).toContainText('Delivered (250)')
  await expect(row).toContainText(address)
  const mails = (
    JSON.parse(readFileSync(smtpMailFile, 'utf8')) as ReceivedMail[]
  ).filter((mail) => mail.to.includes(address))
  expect(mails).toHaveLength(1)
  expect(mails[0]?.data).toContain('Subject: [Sluice] test_alert firing')
  expect(mails[0]?.data).not.toContain('e2e-smtp-password')
})

test('the thresholds are edited on the team page and persist across a reload', async ({
  page,
  signIn,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  await page.goto(`/teams/${team.id}`)
  const form = page
    .getByRole('region', { name: 'Alerts' })
    .getByRole('form', { name: 'Thresholds' })
  const amount = form.getByLabel('Retained WAL threshold')
  const unit = form.getByRole('combobox', { name: 'Unit' })
  const minutes = form.getByLabel('Reconnecting minutes')
  const forecast = form.getByLabel('Slot invalidation minutes')
  const save = form.getByRole('button', { name: 'Save thresholds' })
  // The defaults: 1 GiB, 5 minutes, an hour before a slot's forecast invalidation.
  await expect(amount).toHaveValue('1')
  await expect(unit).toHaveText('GiB')
  await expect(minutes).toHaveValue('5')
  await expect(forecast).toHaveValue('60')
  await expect(save).toBeDisabled()

  // Bad input says why, keeps what was typed and cannot be saved.
  await amount.fill('lots')
  await minutes.fill('2000')
  await forecast.fill('0')
  await expect(
    form.getByText('Enter a whole number', { exact: true }),
  ).toBeVisible()
  await expect(
    form.getByText('Enter a whole number of minutes from 1 to 1440'),
  ).toBeVisible()
  await expect(
    form.getByText('Enter minutes from 1 to 10080 (7 days)'),
  ).toBeVisible()
  await expect(amount).toHaveValue('lots')
  await expect(save).toBeDisabled()

  await amount.fill('256')
  await unit.click()
  await page.getByRole('option', { name: 'MiB' }).click()
  await minutes.fill('15')
  await forecast.fill('30')
  await save.click()
  await expect(form.getByText('Thresholds saved.')).toBeVisible()

  await page.reload()
  await expect(amount).toHaveValue('256')
  await expect(unit).toHaveText('MiB')
  await expect(minutes).toHaveValue('15')
  await expect(forecast).toHaveValue('30')
  const saved = await page.request.get(
    `/api/v1/teams/${team.id}/alert-settings`,
  )
  expect(await saved.json()).toMatchObject({
    wal_retained_threshold_bytes: 256 * 1024 ** 2,
    reconnecting_minutes: 15,
    wal_forecast_threshold_seconds: 1800,
  })
})
