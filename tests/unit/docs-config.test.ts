// docs/configuration.md is generated from the descriptions in code: it must read exactly what
// `npm run docs:config` would write, and the engine's table must name what its CLI reads.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CONFIGURATION_DOC,
  configurationMarkdown,
} from '../../scripts/docs/configuration.ts'
import { ENGINE_CLI_VARIABLES } from '../../src/engine/cli-variables.ts'
import { ENGINE_CONFIG_VARIABLES } from '../../src/engine/config/electric-config.ts'

describe('the configuration reference', () => {
  it('is what npm run docs:config writes from the code', async () => {
    const written = readFileSync(CONFIGURATION_DOC, 'utf8')
    expect(
      written,
      `${CONFIGURATION_DOC} is stale: run npm run docs:config`,
    ).toBe(await configurationMarkdown())
  })

  it("describes exactly the variables the engine's CLI reads", () => {
    const cli = readFileSync('src/engine/cli.ts', 'utf8')
    const read = new Set([
      ...[
        ...cli.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g),
        ...cli.matchAll(/variable: '([A-Z][A-Z0-9_]*)'/g),
      ].map((match) => match[1]),
      ...ENGINE_CONFIG_VARIABLES,
    ])
    expect([...read].sort()).toEqual(Object.keys(ENGINE_CLI_VARIABLES).sort())
  })
})
