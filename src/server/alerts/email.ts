// Email alerts through the operator's SMTP server (SMTP_URL): one message per delivery attempt,
// plain text, under bounded timeouts. The SMTP server is the operator's choice, not a user's, so
// it is not behind the address guard. Its password goes only to nodemailer (whose logger is
// off) and never into a log line or the delivery log: failures come back as Sluice's own words
// with the server's reply code.
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { AlertPayload } from '../../shared/alerts.ts'
import type { AttemptOutcome } from './deliveries.ts'

export type Mailer = {
  send(message: {
    to: string
    subject: string
    text: string
  }): Promise<AttemptOutcome>
  close(): void
}

export type MailerConfig = {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465. */
  url: string
  from: string
  /** Each of connecting, the greeting and every reply; the whole send is bounded by 3× it. */
  timeoutMs: number
}

/** The default sender: alerts@ the public origin's host. */
export function defaultFrom(origin: string): string {
  return `alerts@${new URL(origin).hostname.replace(/^\[|\]$/g, '')}`
}

function describe(error: unknown, timeoutMs: number): AttemptOutcome {
  const { code, responseCode } = error as {
    code?: unknown
    responseCode?: unknown
  }
  if (typeof responseCode === 'number' && responseCode >= 200)
    return {
      statusCode: responseCode,
      error: `The mail server answered ${responseCode}.`,
    }
  const words: Record<string, string> = {
    ETIMEDOUT: `No answer from the mail server within ${Math.round(timeoutMs / 1000)} s.`,
    EABORT: `No answer from the mail server within ${Math.round((3 * timeoutMs) / 1000)} s.`,
    EAUTH: 'The mail server refused the login of SMTP_URL.',
    ETLS: 'The TLS connection to the mail server failed.',
    EDNS: 'Could not resolve the mail server.',
  }
  const text =
    (typeof code === 'string' && words[code]) ||
    ((error as { message?: string }).message?.includes('ECONNREFUSED')
      ? 'The mail server refused the connection.'
      : typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code)
        ? `Sending the email failed (${code}).`
        : 'Sending the email failed.')
  return { statusCode: null, error: text }
}

export function createMailer(config: MailerConfig): Mailer {
  const url = new URL(config.url)
  const secure = url.protocol === 'smtps:'
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? {
          user: decodeURIComponent(url.username),
          pass: decodeURIComponent(url.password),
        }
      : undefined,
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
    logger: false,
    debug: false,
  })
  return {
    async send(message) {
      try {
        // `signal` (nodemailer 10) bounds the whole send; its types predate it.
        const options: SendMailOptions & { signal: AbortSignal } = {
          from: config.from,
          ...message,
          signal: AbortSignal.timeout(3 * config.timeoutMs),
        }
        const info = (await transport.sendMail(options)) as {
          response?: string
        }
        const code = Number.parseInt(String(info.response ?? ''), 10)
        return { statusCode: Number.isFinite(code) ? code : 250, error: null }
      } catch (error) {
        return describe(error, config.timeoutMs)
      }
    },
    close: () => transport.close(),
  }
}

/** The message for one alert: what the webhook carries, and a link to the source's page. */
export function alertEmail(
  payload: AlertPayload,
  source: { name: string | null; link: string | null },
): { subject: string; text: string } {
  // A header line: a source's name may hold any character, never a line break here.
  const about = (source.name ?? payload.source_id ?? 'no source').replace(
    /[\p{Cc}]+/gu,
    ' ',
  )
  const subject = `[Sluice] ${payload.event} ${payload.state}: ${about}`
  const lines = [
    payload.message,
    '',
    `Event: ${payload.event}`,
    `State: ${payload.state}`,
    `Source: ${source.name ? `${source.name} (${payload.source_id})` : (payload.source_id ?? '-')}`,
    `Team: ${payload.team_id}`,
    `Occurred at: ${payload.occurred_at}`,
    `Alert id: ${payload.id}`,
  ]
  if (source.link) lines.push('', `Source page: ${source.link}`)
  lines.push(
    '',
    'You get this because this address is an alert destination of the team in Sluice.',
  )
  return { subject, text: `${lines.join('\n')}\n` }
}
