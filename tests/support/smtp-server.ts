// A tiny SMTP server on 127.0.0.1 for the email alert tests (node:net, no TLS): it offers
// AUTH PLAIN and LOGIN, keeps every message it accepts (envelope, login and raw data), and
// answers the end of each message's data with the codes it is told to, one per message, then 250.
import { createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

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

const MAX_LINE = 64 * 1024

export async function startSmtpServer(
  options: { onMessage?: (mail: ReceivedMail) => void } = {},
): Promise<SmtpServer> {
  const received: ReceivedMail[] = []
  const queue: number[] = []
  const sockets = new Set<Socket>()
  const state = { attempts: 0 }

  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffer = ''
    let mail: ReceivedMail | null = null
    let login: ReceivedMail['login'] = null
    let inData = false
    let data: string[] = []
    let loginStep: 'user' | 'pass' | null = null
    let loginUser = ''
    const say = (line: string) => socket.write(`${line}\r\n`)
    const decode = (b64: string) => Buffer.from(b64, 'base64').toString()

    const line = (text: string) => {
      if (inData) {
        if (text !== '.') {
          data.push(text.startsWith('..') ? text.slice(1) : text)
          return
        }
        inData = false
        state.attempts += 1
        const code = queue.shift() ?? 250
        if (code === 250 && mail) {
          const accepted = { ...mail, login, data: data.join('\r\n') }
          received.push(accepted)
          options.onMessage?.(accepted)
          say('250 2.0.0 Ok: queued')
        } else say(`${code} Not now`)
        mail = null
        data = []
        return
      }
      if (loginStep === 'user') {
        loginUser = decode(text)
        loginStep = 'pass'
        say('334 UGFzc3dvcmQ6')
        return
      }
      if (loginStep === 'pass') {
        login = { user: loginUser, pass: decode(text) }
        loginStep = null
        say('235 2.7.0 Authentication successful')
        return
      }
      const verb = text.slice(0, 4).toUpperCase()
      if (verb === 'EHLO') {
        say('250-localhost')
        say('250-AUTH PLAIN LOGIN')
        say('250 8BITMIME')
      } else if (verb === 'HELO') say('250 localhost')
      else if (verb === 'AUTH') {
        const [, method, initial] = text.split(' ')
        if (method?.toUpperCase() === 'PLAIN' && initial) {
          const [, user = '', pass = ''] = decode(initial).split('\0')
          login = { user, pass }
          say('235 2.7.0 Authentication successful')
        } else if (method?.toUpperCase() === 'LOGIN') {
          loginStep = 'user'
          say('334 VXNlcm5hbWU6')
        } else say('504 Unrecognized authentication type')
      } else if (verb === 'MAIL') {
        mail = {
          from: /<([^>]*)>/.exec(text)?.[1] ?? '',
          to: [],
          login,
          data: '',
        }
        say('250 2.1.0 Ok')
      } else if (verb === 'RCPT') {
        mail?.to.push(/<([^>]*)>/.exec(text)?.[1] ?? '')
        say('250 2.1.5 Ok')
      } else if (verb === 'DATA') {
        inData = true
        say('354 End data with <CR><LF>.<CR><LF>')
      } else if (verb === 'RSET') {
        mail = null
        say('250 2.0.0 Ok')
      } else if (verb === 'NOOP') say('250 2.0.0 Ok')
      else if (verb === 'QUIT') {
        say('221 2.0.0 Bye')
        socket.end()
      } else say('502 5.5.2 Command not recognized')
    }

    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      if (buffer.length > MAX_LINE && !buffer.includes('\r\n')) {
        socket.destroy()
        return
      }
      let at: number
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const text = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        line(text)
      }
    })
    say('220 localhost ESMTP test')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    url: (user, pass) =>
      `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    get attempts() {
      return state.attempts
    },
    answer: (...codes) => queue.push(...codes),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
