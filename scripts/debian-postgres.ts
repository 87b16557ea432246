// Debian's own Postgres, another major version than the embedded 18, for the tests that must
// hold on more than one (the table zoo). scripts/ensure-test-tools.ts installs the `postgresql`
// package; each test run starts its own throwaway cluster from its binaries.
import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../src/server/platform/db/embedded-postgres.ts'

const run = promisify(execFile)
const ROOT = '/usr/lib/postgresql'

/** The newest Debian Postgres below 18 installed (binaries under /usr/lib/postgresql), or null. */
export function debianPostgres(): { major: number; bin: string } | null {
  if (!existsSync(ROOT)) return null
  const majors = readdirSync(ROOT)
    .map(Number)
    .filter(
      (m) => m > 0 && m < 18 && existsSync(join(ROOT, `${m}/bin/postgres`)),
    )
    .sort((a, b) => b - a)
  const major = majors[0]
  return major === undefined ? null : { major, bin: join(ROOT, `${major}/bin`) }
}

export type DebianPostgres = {
  major: number
  url: string
  stop(): Promise<void>
}

/**
 * A fresh cluster on a free port, logical WAL, trust authentication on 127.0.0.1 only. As
 * root, Postgres runs as Debian's `postgres` user (it refuses to run as root).
 */
export async function startDebianPostgres(): Promise<DebianPostgres> {
  const found = debianPostgres()
  if (!found)
    throw new Error(
      "Debian's Postgres is not installed: run 'npm test' (it installs it) or 'sudo apt-get install -y postgresql'.",
    )
  const root = await mkdtemp(join(tmpdir(), 'sluice-debian-pg-'))
  await chmod(root, 0o755)
  const data = join(root, 'data')
  const asRoot = process.getuid?.() === 0
  const as = (argv: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', ...argv])
      : run(argv[0]!, argv.slice(1))
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    await chown(root, Number(stdout.trim()), Number(gid.trim()))
  }
  const port = await freePort()
  try {
    await as([
      join(found.bin, 'initdb'),
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
    ])
    const settings = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      '-c wal_level=logical',
      '-c max_replication_slots=20',
      '-c max_wal_senders=20',
      '-c fsync=off',
      '-c synchronous_commit=off',
    ].join(' ')
    await as([
      join(found.bin, 'pg_ctl'),
      '-D',
      data,
      '-o',
      settings,
      '-l',
      join(root, 'log'),
      '-w',
      'start',
    ])
  } catch (error) {
    await rm(root, { recursive: true, force: true })
    throw error
  }
  return {
    major: found.major,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as([
        join(found.bin, 'pg_ctl'),
        '-D',
        data,
        '-m',
        'fast',
        '-w',
        'stop',
      ]).catch(() => {})
      await rm(root, { recursive: true, force: true })
    },
  }
}
