// The CSP allows the built page's inline script by its hash: the hash of exactly what sits
// between the tags, and nothing for scripts loaded from a file.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inlineScriptSources } from '../../src/server/platform/http/security.ts'

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('inlineScriptSources', () => {
  it('hashes each inline script, whitespace included', () => {
    const html = `<head><script>try { start() } catch {}</script>
      <script type="module" crossorigin src="/assets/index-abc.js"></script>
      <script>
  second()
</script></head>`
    expect(inlineScriptSources(html)).toEqual([
      sha256('try { start() } catch {}'),
      sha256('\n  second()\n'),
    ])
  })

  it('gives nothing for a page without inline scripts', () => {
    expect(
      inlineScriptSources('<script type="module" src="/a.js"></script>'),
    ).toEqual([])
  })
})
