// Runs the real server for the e2e run: a fresh data dir and control-plane Postgres owned by
// this launcher (tests write to it; its URL goes to databaseUrlFile), a fake PostHog the
// server's analytics proxy forwards to (its URL goes to posthogUrlFile), fake Supabase and Neon
// APIs with OAuth configured (their URLs go to supabaseUrlFile and neonUrlFile; tests script
// them through each fake's /_control endpoint), a local SMTP server for email alerts (SMTP_URL;
// what it accepts goes to smtpMailFile), and the server itself as a child process: the bundle
// `npm start` runs, built again here (half a second) so it is the sources as they are. On
// SIGTERM the server stops first, then the fake and Postgres, then the files go.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { buildServer, SERVER_BUNDLE } from '../../scripts/build/server.ts'
import { startFakeNeon } from '../../tests/support/fake-neon.ts'
import { startFakePostHog } from '../../tests/support/fake-posthog.ts'
import { startFakeSupabase } from '../../tests/support/fake-supabase.ts'
import {
  startSmtpServer,
  type ReceivedMail,
} from '../../tests/support/smtp-server.ts'
import { enableTls } from './postgres-tls.ts'
import {
  databaseUrlFile,
  neonUrlFile,
  posthogUrlFile,
  smtpMailFile,
  supabaseUrlFile,
} from './paths.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-e2e-'))
// Embedded Postgres runs as the postgres user when we are root: it must reach the dir.
chmodSync(dataDir, 0o755)
const postgres = await startEmbeddedPostgres({
  dir: join(dataDir, 'postgres'),
  database: 'sluice',
  settings: {
    // Specs run side by side (playwright.config.ts' workers), and most keep their sources'
    // databases here: a slot and a WAL sender each, more than the default 10 at once.
    max_replication_slots: '64',
    max_wal_senders: '64',
    max_connections: '300',
    // A throwaway cluster: durability only costs time.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
  },
})
await enableTls(join(dataDir, 'postgres', 'data'), postgres.url)
writeFileSync(databaseUrlFile, postgres.url)
const posthog = await startFakePostHog()
writeFileSync(posthogUrlFile, posthog.url)
const supabase = await startFakeSupabase()
writeFileSync(supabaseUrlFile, supabase.url)
const neon = await startFakeNeon()
writeFileSync(neonUrlFile, neon.url)
const mails: ReceivedMail[] = []
writeFileSync(smtpMailFile, '[]')
const smtp = await startSmtpServer({
  onMessage: (mail) => {
    mails.push(mail)
    writeFileSync(smtpMailFile, JSON.stringify(mails))
  },
})

await buildServer(process.cwd(), 'dist')
const server = spawn(process.execPath, [SERVER_BUNDLE], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    HOST: process.env.HOST ?? 'localhost',
    POSTHOG_KEY: 'phc_e2e',
    POSTHOG_HOST: posthog.url,
    // Every spec signs in a new user from this one machine: more than one visitor's burst.
    LOCAL_LOGINS_PER_MINUTE: '1000',
    ...supabase.env,
    ...neon.env,
    // A Supabase project's "direct host" is this run's Postgres, whatever the project ref.
    SUPABASE_DB_HOST_TEMPLATE: `localhost:${postgres.port}`,
    SMTP_URL: smtp.url('e2e-alerts', 'e2e-smtp-password'),
  },
})

let stopping = false
async function stop(code: number) {
  if (stopping) return
  stopping = true
  if (server.exitCode === null) {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
  }
  await posthog.close()
  await supabase.close()
  await neon.close()
  await smtp.close()
  await postgres.stop()
  for (const file of [
    databaseUrlFile,
    posthogUrlFile,
    supabaseUrlFile,
    neonUrlFile,
    smtpMailFile,
  ])
    rmSync(file, { force: true })
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(code)
}
server.once('exit', (code) => void stop(code ?? 1))
process.on('SIGTERM', () => void stop(0))
process.on('SIGINT', () => void stop(0))
