// E2E needs Debian's Chromium at /usr/bin/chromium, and openssl (the e2e Postgres's self-signed
// certificate, e2e/support/postgres-tls.ts). As root on Debian we install what is missing;
// elsewhere we stop with the one line that tells how.
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { CHROMIUM_PATH as CHROMIUM } from './chromium.ts'

const hasOpenssl = () => {
  try {
    execSync('openssl version', { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(hasOpenssl() ? [] : ['openssl']),
]
if (missing.length > 0) {
  const root = process.getuid?.() === 0
  if (root && existsSync('/etc/debian_version')) {
    console.log(
      `Installing Debian ${missing.join(' and ')} for the e2e tests...`,
    )
    execSync(
      `apt-get update -qq && apt-get install -y -qq ${missing.join(' ')}`,
      {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    )
  } else {
    console.error(
      `Missing for the e2e tests: ${missing.join(', ')}. Install (Debian: sudo apt-get install -y ${missing.join(' ')})` +
        (missing.includes('chromium') ? ' or set CHROMIUM_PATH.' : '.'),
    )
    process.exit(1)
  }
}
