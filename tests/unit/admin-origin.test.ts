// Where the admin tool's links point: PUBLIC_URL, else the address the server recorded as it
// started listening (it may run on a PORT the tool was not given), else HOST:PORT.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  cliOrigin,
  localOrigin,
  recordListeningOrigin,
  serverOrigin,
} from '../../src/server/admin/origin.ts'
import { parseEnv } from '../../src/server/platform/env.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true })
})
function envWith(vars: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-origin-'))
  dirs.push(dir)
  return parseEnv({ DATA_DIR: dir, ...vars })
}

describe('the admin tool’s origin', () => {
  it('is the address the running server recorded, not the tool’s own PORT', () => {
    const env = envWith()
    expect(cliOrigin(env)).toBe('http://localhost:5133')
    recordListeningOrigin(env, localOrigin(env, 8080))
    expect(cliOrigin(env)).toBe('http://localhost:8080')
    // The server itself goes by its own env.
    expect(serverOrigin(env)).toBe('http://localhost:5133')
  })

  it('is PUBLIC_URL whenever it is set', () => {
    const env = envWith({ PUBLIC_URL: 'https://sluice.example.com/' })
    recordListeningOrigin(env, 'http://localhost:8080')
    expect(cliOrigin(env)).toBe('https://sluice.example.com')
  })

  it('names the host the server listens on, and ignores a file that is not an address', () => {
    const env = envWith({ HOST: '127.0.0.1', PORT: '6000' })
    writeFileSync(join(env.DATA_DIR, 'server-origin'), 'not a url\n')
    expect(cliOrigin(env)).toBe('http://127.0.0.1:6000')
    expect(localOrigin(envWith({ HOST: '::1' }), 7)).toBe('http://[::1]:7')
  })
})
