// Helpers for the team API token tests: making a token as a signed-in member, and calling the
// app as a script holding one would (Authorization: Bearer, no cookie, no Origin).
import { expect } from 'vitest'
import { apiTokensPath } from '../../src/shared/api-tokens.ts'
import { Browser, type App } from './app.ts'

export type Reply = { status: number; headers: Headers; body: unknown }

async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : null,
  }
}

/** A same-origin JSON call with the browser's session, as the team page makes it. */
export async function asMember(
  browser: Browser,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  return reply(
    await browser.request(path, {
      method,
      headers: {
        origin: browser.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
}

/** A call with `token` alone: what a CI job or the CLI sends. */
export async function withToken(
  app: App,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  return reply(
    await new Browser(app).request(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
}

/** A new token of the member's team; answers its id and the token. */
export async function newToken(
  browser: Browser,
  teamId: string,
  body: Record<string, unknown> = { name: 'ci' },
): Promise<{ id: string; token: string }> {
  const made = await asMember(browser, 'POST', apiTokensPath(teamId), body)
  expect(made.status).toBe(201)
  return made.body as { id: string; token: string }
}
