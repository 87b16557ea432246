// E2E needs Debian's Chromium at /usr/bin/chromium. As root on Debian we install it;
// elsewhere we stop with the one line that tells how.
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { CHROMIUM_PATH as CHROMIUM } from './chromium.ts'

if (!existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0
  if (root && existsSync('/etc/debian_version')) {
    console.log('Installing Debian chromium for the e2e tests...')
    execSync('apt-get update -qq && apt-get install -y -qq chromium', {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  } else {
    console.error(
      `Chromium not found at ${CHROMIUM}: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    )
    process.exit(1)
  }
}
