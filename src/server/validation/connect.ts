// One connection of a check: open it (trying the sslmode's TLS settings in order), run the
// work, always close. A deadline signal tears down whatever is still open.
import type pg from 'pg'
import { clientConfig, createClient, sslAttempts } from './client.ts'
import type { DatabaseTarget } from '../../shared/postgres-url.ts'

/** Only these failures mean "try the sslmode's next setting": the server's answer on TLS. */
function wantsOtherTls(error: unknown, ssl: unknown): boolean {
  const message = error instanceof Error ? error.message : ''
  if (ssl) return /does not support SSL/i.test(message)
  // sslmode=allow starts in plain text; a server that requires TLS refuses the login (28000).
  return (error as { code?: unknown }).code === '28000'
}

export class DeadlineError extends Error {}

async function connectOnce(
  config: pg.ClientConfig,
  signal: AbortSignal,
): Promise<pg.Client> {
  signal.throwIfAborted()
  const client = createClient(config as Parameters<typeof createClient>[0])
  // An error after connect (server gone) must not become an unhandled 'error' event.
  client.on('error', () => {})
  const abort = () => {
    ;(
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy()
  }
  signal.addEventListener('abort', abort, { once: true })
  try {
    await client.connect()
    return client
  } catch (error) {
    signal.removeEventListener('abort', abort)
    await client.end().catch(() => {})
    throw signal.aborted ? new DeadlineError() : error
  }
}

export async function withConnection<T>(
  target: DatabaseTarget,
  address: string,
  replication: boolean,
  signal: AbortSignal,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const attempts = sslAttempts(target)
  let client: pg.Client | undefined
  for (const [index, ssl] of attempts.entries()) {
    try {
      client = await connectOnce(
        clientConfig(target, address, ssl, replication),
        signal,
      )
      break
    } catch (error) {
      if (index === attempts.length - 1 || !wantsOtherTls(error, ssl))
        throw error
    }
  }
  if (!client) throw new Error('unreachable: no TLS setting to try')
  try {
    return await work(client)
  } catch (error) {
    throw signal.aborted ? new DeadlineError() : error
  } finally {
    await client.end().catch(() => {})
  }
}
