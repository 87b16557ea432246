// A shape's answers reach its stream only after the store has committed the answers before.
//
// pglite-sync (0.6) commits each answer's rows in a transaction that also saves where the
// subscription resumes: the stream's offset, read when that transaction runs, not the offset of
// the answer it commits. Its commits wait for the store's other statements (a tab's reads and
// writes, the other shapes' commits) while the stream asks on; when the next answer arrives
// first, the commit saves that answer's offset beside the previous answer's rows. A worker that
// stops before the next commit (its tab closed) then leaves a store whose sync resumes past rows
// it never stored: the tab that takes over stays rows short for good (fault F10).
//
// So an answer's body is read only once every statement asked before that read has run. PGlite
// runs statements one at a time in the order asked, and pglite-sync asks for an answer's commit
// before the stream goes on to the next answer: the previous answer's commit is among them, and
// saves that answer's own offset. The body, not the answer itself: the client fetches the next
// chunks of a catch-up ahead of time, but takes on an answer's offset only once it has read the
// answer's body (its client 1.0, which reads the whole body first).
import type { PGliteInterface } from '@electric-sql/pglite'

export function afterCommits(
  pg: Pick<PGliteInterface, 'query'>,
  fetchClient: typeof fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await fetchClient(input, init)
    // An error carries no rows and moves no offset.
    if (!response.ok || !response.body) return response
    const body = response.body
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null
    const held = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (!reader) {
            await pg.query('select 1')
            reader = body.getReader()
          }
          const { done, value } = await reader.read()
          if (done) controller.close()
          else controller.enqueue(value)
        },
        cancel: (reason) => (reader ?? body).cancel(reason),
      },
      // Nothing is read before the client asks (a stream reads ahead by default).
      { highWaterMark: 0 },
    )
    return new Response(held, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}
