// Alerts on the team page end to end: a member adds a webhook (a local receiver; local mode
// allows http to loopback), sees its signing secret once, sends a test alert that arrives
// signed with that secret, and sees the attempt in the delivery log, synced from the server.
import {
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '../tests/support/webhook-receiver.ts'
import { personalTeam } from './support/explorer.ts'
import { expect, test } from './support/fixtures.ts'

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
    alerts.getByText('No webhooks yet.', { exact: false }),
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

  const webhooks = alerts.getByRole('table', { name: 'Webhooks' })
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
