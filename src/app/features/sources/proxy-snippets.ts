// The source page's "Use it from your app" code: a proxy written the way Electric Cloud's docs
// write one (every client parameter copied onto the origin URL, then the source's id and
// secret added), which moves from Electric Cloud by changing the origin's host alone, and the
// curl of a first request. Pure text: the page masks the secret and copies it whole.
import type { Snippet } from '../../components/snippet-tabs.tsx'
import { shapeCurl } from '../shapes/snippets.ts'

/** The sample's table: the reader puts one of theirs in its place. */
const SAMPLE_TABLE = 'items'

export function proxySnippets(props: {
  /** The absolute URL of /v1/shape. */
  shapeUrl: string
  sourceId: string
  secret: string
}): Snippet[] {
  const proxy = `// Your server's shape route: the client's parameters, plus the source's credentials.
export async function GET(request: Request) {
  const url = new URL(request.url)
  const origin = new URL('${props.shapeUrl}')
  url.searchParams.forEach((value, key) => origin.searchParams.set(key, value))
  origin.searchParams.set('source_id', process.env.SLUICE_SOURCE_ID!) // ${props.sourceId}
  origin.searchParams.set('secret', process.env.SLUICE_SECRET!)

  const response = await fetch(origin)
  // fetch decompressed the body: the encoding headers no longer describe it.
  const headers = new Headers(response.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  return new Response(response.body, { status: response.status, headers })
}`
  const env = `SLUICE_SOURCE_ID=${props.sourceId}
SLUICE_SECRET=${props.secret}`
  return [
    { id: 'proxy', label: 'Proxy', text: proxy },
    { id: 'env', label: 'Environment', text: env },
    {
      id: 'curl',
      label: 'curl',
      text: shapeCurl(props.shapeUrl, {
        table: SAMPLE_TABLE,
        source_id: props.sourceId,
        source_secret: props.secret,
      }),
    },
  ]
}
