// One keep-alive HTTP/1.1 connection that sends GETs one at a time: the followers' transport.
// node:http's client cost the load process about as much CPU per change as the engine spent
// serving it (ClientRequest, the agent's socket pool, IncomingMessage: over half the load
// process's profile at 1,000 followers), and on a small machine the bench then measured its
// own clients' queue. This reads only what a follower needs: status, a few headers, the body.
import { connect, type Socket } from 'node:net'

export type Reply = {
  status: number
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>
  body: string
}

type Pending = {
  resolve: (reply: Reply) => void
  reject: (error: Error) => void
}

const HEAD_END = Buffer.from('\r\n\r\n')

export class HttpConnection {
  private socket: Socket | null = null
  private pending: Pending | null = null
  private buffer: Buffer = Buffer.alloc(0)

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** `path` with its query. Rejects when the connection fails or closes mid-answer. */
  get(path: string): Promise<Reply> {
    if (this.pending) throw new Error('one request at a time')
    return new Promise<Reply>((resolve, reject) => {
      this.pending = { resolve, reject }
      const socket = this.socket ?? this.open()
      socket.write(
        `GET ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n\r\n`,
      )
    })
  }

  close(): void {
    this.socket?.destroy()
    this.socket = null
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true })
    this.socket = socket
    this.buffer = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => this.onData(chunk))
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = null
      const pending = this.pending
      this.pending = null
      pending?.reject(error)
    }
    socket.on('error', fail)
    socket.on('close', () => fail(new Error('connection closed')))
    return socket
  }

  private onData(chunk: Buffer): void {
    this.buffer =
      this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    const reply = this.parse()
    if (!reply) return
    const pending = this.pending
    this.pending = null
    if (reply.headers.connection === 'close') this.close()
    pending?.resolve(reply)
  }

  /** A whole answer from the buffer (consumed), or null while it is still arriving. */
  private parse(): Reply | null {
    const headEnd = this.buffer.indexOf(HEAD_END)
    if (headEnd < 0) return null
    const lines = this.buffer.toString('latin1', 0, headEnd).split('\r\n')
    const status = Number(lines[0]?.split(' ')[1])
    const headers: Record<string, string> = {}
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] ?? ''
      const colon = line.indexOf(':')
      if (colon > 0)
        headers[line.slice(0, colon).toLowerCase()] = line
          .slice(colon + 1)
          .trim()
    }
    const start = headEnd + HEAD_END.length
    const length = headers['content-length']
    if (length !== undefined || status === 304 || status === 204) {
      const end = start + Number(length ?? 0)
      if (this.buffer.length < end) return null
      const body = this.buffer.toString('utf8', start, end)
      this.buffer = this.buffer.subarray(end)
      return { status, headers, body }
    }
    if (headers['transfer-encoding'] !== 'chunked')
      throw new Error(`an answer without a length (HTTP ${status})`)
    return this.parseChunked(status, headers, start)
  }

  private parseChunked(
    status: number,
    headers: Record<string, string>,
    start: number,
  ): Reply | null {
    const parts: Buffer[] = []
    let at = start
    for (;;) {
      const lineEnd = this.buffer.indexOf('\r\n', at)
      if (lineEnd < 0) return null
      const size = parseInt(this.buffer.toString('latin1', at, lineEnd), 16)
      const dataStart = lineEnd + 2
      if (this.buffer.length < dataStart + size + 2) return null
      if (size === 0) {
        this.buffer = this.buffer.subarray(dataStart + 2)
        return { status, headers, body: Buffer.concat(parts).toString('utf8') }
      }
      parts.push(this.buffer.subarray(dataStart, dataStart + size))
      at = dataStart + size + 2
    }
  }
}
