// An SMTP server on 127.0.0.1 for the email alert tests (the smtp-server package, no TLS): it
// offers AUTH PLAIN and LOGIN, keeps every message it accepts (envelope, login and raw data),
// and answers the end of each message's data with the codes it is told to, one per message,
// then 250.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = {
  from: string
  to: string[]
  /** The user and password the client logged in with. */
  login: { user: string; pass: string } | null
  /** The message as sent (headers and body, dot-unstuffed). */
  data: string
}

export type SmtpServer = {
  port: number
  /** smtp://user:pass@127.0.0.1:port */
  url(user: string, pass: string): string
  received: ReceivedMail[]
  /** Every message's data as answered (accepted or not). */
  attempts: number
  /** The next messages' answers to their data, in order; 250 once these are used. */
  answer(...codes: number[]): void
  close(): Promise<void>
}

export async function startSmtpServer(
  options: { onMessage?: (mail: ReceivedMail) => void } = {},
): Promise<SmtpServer> {
  const received: ReceivedMail[] = []
  const queue: number[] = []
  const state = { attempts: 0 }

  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() ends the connections a client left open at once (the default waits 30 s).
    closeTimeout: 1,
    onAuth: (auth, _session, callback) =>
      callback(null, { user: { user: auth.username, pass: auth.password } }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        state.attempts += 1
        const code = queue.shift() ?? 250
        if (code !== 250)
          return callback(
            Object.assign(new Error('Not now'), { responseCode: code }),
          )
        const { mailFrom, rcptTo } = session.envelope
        const mail: ReceivedMail = {
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((recipient) => recipient.address),
          login: (session.user as ReceivedMail['login'] | undefined) ?? null,
          data: Buffer.concat(chunks).toString('utf8'),
        }
        received.push(mail)
        options.onMessage?.(mail)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    port,
    url: (user, pass) =>
      `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    get attempts() {
      return state.attempts
    },
    answer: (...codes) => queue.push(...codes),
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  }
}
