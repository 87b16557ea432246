// What the tests need from the system: Debian's Chromium at /usr/bin/chromium (e2e), openssl
// (the e2e Postgres's self-signed certificate, e2e/support/postgres-tls.ts) and nginx (the
// caching proxy of the fan-out test, scripts/nginx.ts) and Debian's Postgres (the table zoo
// runs on it as well as on the embedded 18, scripts/debian-postgres.ts) and jq (the shell
// recipes of docs/migrate-from-electric-cloud.md, which a test runs). As root on Debian we
// install what is missing; elsewhere we stop with the one line that tells how.
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { NGINX } from './nginx.ts'
import { CHROMIUM_PATH as CHROMIUM } from './chromium.ts'
import { debianPostgres } from './debian-postgres.ts'

const runs = (command: string) => {
  try {
    execSync(command, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(runs('openssl version') ? [] : ['openssl']),
  ...(existsSync(NGINX) ? [] : ['nginx-light']),
  ...(debianPostgres() ? [] : ['postgresql']),
  ...(runs('jq --version') ? [] : ['jq']),
]
if (missing.length > 0) {
  const root = process.getuid?.() === 0
  if (root && existsSync('/etc/debian_version')) {
    console.log(`Installing Debian ${missing.join(', ')} for the tests...`)
    execSync(
      `apt-get update -qq && apt-get install -y -qq ${missing.join(' ')}`,
      {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    )
  } else {
    console.error(
      `Missing for the tests: ${missing.join(', ')}. Install (Debian: sudo apt-get install -y ${missing.join(' ')})` +
        (missing.includes('chromium') ? ' or set CHROMIUM_PATH' : '') +
        (missing.includes('nginx-light') ? ' or set NGINX_PATH' : '') +
        '.',
    )
    process.exit(1)
  }
}
