// A load generator of raw HTTP requests, each on a connection of its own (no agent, no
// pooling), so every request is in flight at the server at once; and requests held open.
import { request, type ClientRequest } from 'node:http'

export type RawAnswer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Many requests sent at once; `answers` fills as they come, `requests` can be ended. */
export type Load = {
  answers: RawAnswer[]
  requests: ClientRequest[]
  /** Every answer, once all came (a request ended by `stop` counts as none). */
  done: Promise<RawAnswer[]>
  stop(): void
}

export function rawGet(url: string): {
  req: ClientRequest
  answer: Promise<RawAnswer>
} {
  const req = request(url, { agent: false })
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      response.on('error', reject)
    })
    req.on('error', reject)
  })
  req.end()
  return { req, answer }
}

export function rawLoad(urls: string[]): Load {
  const answers: RawAnswer[] = []
  const requests: ClientRequest[] = []
  const all = urls.map((url) => {
    const { req, answer } = rawGet(url)
    requests.push(req)
    return answer.then(
      (a) => {
        answers.push(a)
        return a
      },
      () => null,
    )
  })
  return {
    answers,
    requests,
    done: Promise.all(all).then((list) =>
      list.filter((a): a is RawAnswer => a !== null),
    ),
    stop: () => requests.forEach((req) => req.destroy()),
  }
}

/**
 * A POST whose body never comes: the server holds the request (reading its body) until
 * `release` ends the connection. Answers nothing.
 */
export function heldPost(url: string): { release(): void } {
  const req = request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': '64' },
  })
  req.on('error', () => {}) // ended by release
  req.write('{')
  return { release: () => req.destroy() }
}
