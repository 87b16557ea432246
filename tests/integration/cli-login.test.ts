// `sluice auth login` against a real Sluice: the terminal starts a login and prints the page
// and code, a signed-in member approves it for their team, the terminal collects a new team API
// token once and keeps it in a file only its user may read, and later commands use it. Whoever
// lacks the poll secret, or the team, gets nothing.
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../src/cli/main.ts'
import { signInLocally, type Browser } from '../support/app.ts'
import { asMember } from '../support/api-tokens.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  personalTeam,
  startSourceServer,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let member: Browser
let stranger: Browser
let teamId: string
let strangerTeam: string

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  member = signedIn.browser
  teamId = await personalTeam(control.db, signedIn.user.id)
  const other = await signInLocally(server.app, 'Other')
  stranger = other.browser
  strangerTeam = await personalTeam(control.db, other.user.id)
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

function terminal(config: string) {
  const lines = { out: '', err: '' }
  const done = run(['auth', 'login', '--url', server.origin], {
    out: { write: (text) => void (lines.out += text) },
    err: { write: (text) => void (lines.err += text) },
    env: { XDG_CONFIG_HOME: config, SLUICE_NO_BROWSER: '1' },
    pause: () => new Promise((resolve) => setImmediate(resolve)),
  })
  return { lines, done }
}

/** The login's id and code, once the terminal printed them. */
async function printed(lines: { out: string }) {
  await vi.waitFor(() => expect(lines.out).toContain('/cli-login/'))
  const id = /\/cli-login\/([0-9a-f-]{36})/.exec(lines.out)?.[1] as string
  const code = /code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(lines.out)?.[1] as string
  return { id, code }
}

describe('sluice auth login', () => {
  it('stores a token the member approved, readable by the user alone, which later commands use', async () => {
    const config = mkdtempSync(join(tmpdir(), 'sluice-login-'))
    const { lines, done } = terminal(config)
    const { id, code } = await printed(lines)

    // The page shows what the terminal printed; another member's team is refused.
    const shown = await asMember(member, 'GET', `/api/v1/cli-logins/${id}`)
    expect(shown.body).toMatchObject({ user_code: code, state: 'pending' })
    expect(
      (
        await asMember(member, 'POST', `/api/v1/cli-logins/${id}/approve`, {
          team_id: strangerTeam,
        })
      ).status,
    ).toBe(404)
    const approved = await asMember(
      member,
      'POST',
      `/api/v1/cli-logins/${id}/approve`,
      { team_id: teamId },
    )
    expect(approved.status).toBe(200)

    expect(await done).toBe(0)
    expect(lines.out).toContain(`Logged in: a token for team ${teamId}`)
    const file = join(config, 'sluice', 'credentials.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(config, 'sluice')).mode & 0o777).toBe(0o700)
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      url: string
      token: string
    }
    expect(stored).toEqual({ url: server.origin, token: expect.any(String) })
    expect(stored.token).toMatch(/^sluice_/)
    expect(lines.out).not.toContain(stored.token)

    // Later commands read it: no URL or token in the environment.
    let out = ''
    const listed = await run(['teams', 'list', '--json'], {
      out: { write: (text) => void (out += text) },
      err: { write: () => {} },
      env: { XDG_CONFIG_HOME: config },
    })
    expect(listed).toBe(0)
    expect(JSON.parse(out)).toEqual([{ id: teamId, name: expect.any(String) }])

    // The team page lists it as the CLI's.
    const tokens = await asMember(
      member,
      'GET',
      `/api/v1/teams/${teamId}/api-tokens`,
    )
    expect(tokens.body).toContainEqual(
      expect.objectContaining({
        name: expect.stringMatching(/^sluice CLI on /),
      }),
    )

    // Collected once: the login is gone, its approval too.
    expect(
      (
        await asMember(member, 'POST', `/api/v1/cli-logins/${id}/approve`, {
          team_id: teamId,
        })
      ).status,
    ).toBe(404)

    let status = ''
    await run(['auth', 'status'], {
      out: { write: (text) => void (status += text) },
      err: { write: () => {} },
      env: { XDG_CONFIG_HOME: config },
    })
    expect(status).toBe(`Logged in to ${server.origin}.\n`)
    await run(['auth', 'logout'], {
      out: { write: () => {} },
      err: { write: () => {} },
      env: { XDG_CONFIG_HOME: config },
    })
    expect(() => statSync(file)).toThrow()
  })

  it('gives nothing to whoever lacks the poll secret, and is the member’s to approve', async () => {
    const started = await fetch(`${server.origin}/api/public/cli-logins`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ machine: 'ci-runner' }),
    })
    expect(started.status).toBe(201)
    const login = (await started.json()) as { id: string; poll_secret: string }
    const collect = (secret: string) =>
      fetch(`${server.origin}/api/public/cli-logins/${login.id}/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ poll_secret: secret }),
      })
    expect((await collect(login.poll_secret)).status).toBe(202)
    // Signed out: no approving (401); a token cannot approve either.
    const anonymous = await fetch(
      `${server.origin}/api/v1/cli-logins/${login.id}/approve`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.origin },
        body: JSON.stringify({ team_id: teamId }),
      },
    )
    expect(anonymous.status).toBe(401)
    await asMember(stranger, 'POST', `/api/v1/cli-logins/${login.id}/approve`, {
      team_id: strangerTeam,
    })
    expect((await collect(`${login.poll_secret}x`)).status).toBe(404)
    const collected = await collect(login.poll_secret)
    expect(collected.status).toBe(200)
    expect(await collected.json()).toMatchObject({ team_id: strangerTeam })
    expect((await collect(login.poll_secret)).status).toBe(404)
  })

  it('keeps the newest 1,000 logins: a flood of starts pushes out the oldest, never refuses', async () => {
    const start = async () => {
      const answer = await fetch(`${server.origin}/api/public/cli-logins`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      expect(answer.status).toBe(201)
      return (await answer.json()) as { id: string; poll_secret: string }
    }
    const collect = async (login: { id: string; poll_secret: string }) =>
      (
        await fetch(
          `${server.origin}/api/public/cli-logins/${login.id}/collect`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ poll_secret: login.poll_secret }),
          },
        )
      ).status
    const oldest = await start()
    let newest = oldest
    for (let i = 0; i < 1_000; i++) newest = await start()
    expect(await collect(newest)).toBe(202)
    expect(await collect(oldest)).toBe(404)
  }, 60_000)
})
