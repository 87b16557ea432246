// One webhook call: the body signed with the destination's secret, sent to the one address the
// guard approved for this attempt (resolved, checked and pinned each time, so a name cannot be
// rebound to an inner address between attempts), under one deadline, reading at most a few
// KiB of the answer. Redirects are not followed. Failures come back as Sluice's own words.
import { createHmac } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookUrlProblem,
} from '../../shared/alerts.ts'
import {
  pinAddress,
  RefusedTargetError,
  UnresolvedHostError,
  type Resolver,
} from '../validation/guard.ts'
import type { AttemptOutcome } from './deliveries.ts'

export type WebhookTargets = {
  /** env.allowPrivateDatabaseTargets: the same rule as databases. */
  allowPrivate: boolean
  resolve: Resolver
}

/** The most of an answer's body read before the socket is closed (it is never stored). */
const MAX_ANSWER_BYTES = 16 * 1024

/** `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the secret. */
function signWebhook(secret: string, timestamp: string, body: string): string {
  const mac = createHmac('sha256', secret)
    .update(`${timestamp}.${body}`)
    .digest('hex')
  return `v1=${mac}`
}

function describe(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: unknown }).code
  if ((error as Error).name === 'TimeoutError' || code === 'ABORT_ERR')
    return `No answer within ${Math.round(timeoutMs / 1000)} s.`
  if (code === 'ECONNREFUSED') return 'The connection was refused.'
  if (code === 'ECONNRESET') return 'The connection was reset.'
  if (
    typeof code === 'string' &&
    /^(ERR_TLS|CERT_|DEPTH_|UNABLE_TO)/.test(code)
  )
    return 'The TLS certificate could not be verified.'
  if (typeof code === 'string' && /^[A-Z_]{3,40}$/.test(code))
    return `The request failed (${code}).`
  return 'The request failed.'
}

/**
 * The URL rule (https, http only to loopback where private targets are allowed) and the
 * address guard, at creation and again before every attempt: the address to pin, or why not.
 */
export async function guardWebhookUrl(
  rawUrl: string,
  targets: WebhookTargets,
): Promise<
  { ok: true; url: URL; address: string } | { ok: false; message: string }
> {
  const problem = webhookUrlProblem(rawUrl, targets.allowPrivate)
  if (problem) return { ok: false, message: problem }
  const url = new URL(rawUrl)
  try {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    return { ok: true, url, address: await pinAddress(host, targets) }
  } catch (error) {
    if (error instanceof RefusedTargetError)
      return {
        ok: false,
        message:
          'This host is not allowed: alerts go only to public internet addresses.',
      }
    if (error instanceof UnresolvedHostError)
      return {
        ok: false,
        message: `Could not resolve the host "${url.hostname}".`,
      }
    throw error
  }
}

export async function sendWebhook(
  rawUrl: string,
  body: string,
  secret: string,
  options: WebhookTargets & { timeoutMs: number; now?: () => number },
): Promise<AttemptOutcome> {
  const guarded = await guardWebhookUrl(rawUrl, options)
  if (!guarded.ok) return { statusCode: null, error: guarded.message }
  const { url, address } = guarded
  const family = isIP(address) === 6 ? 6 : 4
  // Every lookup the request makes answers the pinned address (TLS still checks the name).
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const timestamp = String(Math.floor((options.now ?? Date.now)() / 1000))
  const client = url.protocol === 'https:' ? https : http
  return new Promise<AttemptOutcome>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup,
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Sluice-Alerts/1',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0
        let read = 0
        const done = () => {
          response.destroy()
          resolve({
            statusCode,
            error:
              statusCode >= 200 && statusCode < 300
                ? null
                : `The destination answered ${statusCode}.`,
          })
        }
        response.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > MAX_ANSWER_BYTES) done()
        })
        response.on('end', done)
        response.on('error', done)
      },
    )
    request.on('error', (error) =>
      resolve({ statusCode: null, error: describe(error, options.timeoutMs) }),
    )
    request.end(body)
  })
}
