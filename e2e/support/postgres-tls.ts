// Turns TLS on for the e2e run's Postgres, so connection strings with sslmode=require (the
// Supabase wizard builds those, as Supabase refuses plain connections) reach it. A self-signed
// certificate, which nothing trusts: sslmode=require encrypts without verifying, in the
// readiness check and in the engine alike (sources/connection-url.ts). Done after start, with a reload,
// because only then does the data directory exist with the owner Postgres insists on for its
// key file (the `postgres` user when we are root).
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, statSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'

export async function enableTls(
  dataDir: string,
  adminUrl: string,
): Promise<void> {
  const key = join(dataDir, 'e2e-server.key')
  const cert = join(dataDir, 'e2e-server.crt')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  )
  const owner = statSync(dataDir)
  for (const file of [key, cert]) {
    chownSync(file, owner.uid, owner.gid)
    chmodSync(file, 0o600)
  }
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`alter system set ssl_cert_file = '${cert}'`)
    await client.query(`alter system set ssl_key_file = '${key}'`)
    await client.query('alter system set ssl = on')
    await client.query('select pg_reload_conf()')
  } finally {
    await client.end()
  }
}
