// What the tests of the CLI, its recipes and the migration guide share: a Sluice with a team API
// token, a child process run without blocking the server that answers it
// (which runs in the test's own process), `sluice` on a PATH as the installed package puts it,
// and an app's proxy written the way Electric Cloud's docs write one.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Db } from '../../src/server/platform/db/database.ts'
import { signInLocally } from './app.ts'
import { newToken } from './api-tokens.ts'
import {
  personalTeam,
  startSourceServer,
  type SourceServer,
} from './sources.ts'

const SLUICE_BIN = join(import.meta.dirname, '../../bin/sluice.js')

/** A server, a signed-in member's team, and a token of that team. */
export async function startTokenedServer(db: Db): Promise<{
  server: SourceServer
  teamId: string
  token: string
}> {
  const server = await startSourceServer(db)
  const signedIn = await signInLocally(server.app)
  const teamId = await personalTeam(db, signedIn.user.id)
  const { token } = await newToken(signedIn.browser, teamId)
  return { server, teamId, token }
}

export type Ran = { status: number | null; out: string; err: string }

/** Runs a command to its end. Not spawnSync: the server it talks to runs in this process. */
export function runProcess(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, options)
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', (status) => resolve({ status, out, err }))
  })
}

/** A directory holding `sluice` (bin/sluice.js), to put first on a PATH. */
export function sluiceOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bin-'))
  writeFileSync(
    join(dir, 'sluice'),
    `#!/bin/sh\nexec node '${SLUICE_BIN}' "$@"\n`,
  )
  chmodSync(join(dir, 'sluice'), 0o755)
  return dir
}

/**
 * An app's shape proxy as Electric Cloud's docs write it: every client parameter copied onto
 * the origin's /v1/shape, then `source_id` and `secret` added (read per request, so a test may
 * make the source after starting it). Answers its URL and a stop.
 */
export async function startShapeProxy(
  origin: string,
  credentials: () => Promise<{ id: string; secret: string }>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const proxy: Server = createServer((req, res) => {
    void (async () => {
      const { id, secret } = await credentials()
      const url = new URL(req.url ?? '/', 'http://proxy.local')
      const originUrl = new URL(`${origin}/v1/shape`)
      url.searchParams.forEach((value, key) =>
        originUrl.searchParams.set(key, value),
      )
      originUrl.searchParams.set('source_id', id)
      originUrl.searchParams.set('secret', secret)
      const response = await fetch(originUrl)
      const headers = new Headers(response.headers)
      headers.delete('content-encoding')
      headers.delete('content-length')
      res.writeHead(response.status, Object.fromEntries(headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })().catch(() => {
      res.writeHead(502)
      res.end()
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/shape`,
    stop: async () => {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    },
  }
}
