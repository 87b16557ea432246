// The Dockerfile checker the deploy test runs: it passes a good file and names each fault.
import { describe, expect, it } from 'vitest'
import { checkDockerfile } from '../support/dockerfile.ts'

const good = `FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
RUN npm ci

FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \\
    PORT=5133
COPY --from=build /app/dist ./dist
USER node
HEALTHCHECK CMD ["node", "-e", "1"]
CMD ["node", "server.js"]
`

describe('checkDockerfile', () => {
  it('passes a multi-stage, pinned, non-root file with a health check', () => {
    expect(checkDockerfile(good)).toEqual([])
  })

  it.each([
    ['one stage', good.split('\n\n')[1] ?? '', /not multi-stage/],
    [
      'an unpinned base',
      good.replace('node:20.20.2-bookworm-slim AS build', 'node:20 AS build'),
      /base node:20 is not pinned/,
    ],
    [
      'latest',
      good.replace(
        'node:20.20.2-bookworm-slim AS runtime',
        'node:latest AS runtime',
      ),
      /node:latest is not pinned/,
    ],
    ['no USER', good.replace('USER node\n', ''), /runs as root/],
    ['USER root', good.replace('USER node', 'USER root'), /runs as root/],
    ['no HEALTHCHECK', good.replace(/HEALTHCHECK.*\n/, ''), /no HEALTHCHECK/],
    [
      'a secret in ENV',
      good.replace('PORT=5133', 'SLUICE_SECRET=abc'),
      /line 6: SLUICE_SECRET looks like a secret/,
    ],
    [
      'a secret in ARG',
      good.replace('WORKDIR /app', 'ARG GITHUB_TOKEN'),
      /GITHUB_TOKEN looks like a secret/,
    ],
    [
      'no NODE_ENV',
      good.replace('NODE_ENV=production', 'NODE_ENV=development'),
      /NODE_ENV=production/,
    ],
    ['no CMD', good.replace(/CMD \[.*\n/, ''), /no CMD/],
    [
      'another target that runs as root',
      good.replace(
        'FROM node:20.20.2-bookworm-slim AS runtime',
        'FROM node:20.20.2-bookworm-slim AS engine\nENV NODE_ENV=production\nHEALTHCHECK CMD ["node", "-e", "1"]\nCMD ["node", "engine.js"]\n\nFROM node:20.20.2-bookworm-slim AS runtime',
      ),
      /the engine stage runs as root/,
    ],
    [
      'a syntax error',
      good.replace('WORKDIR /app', 'WROKDIR /app'),
      /line 2: Unknown instruction: WROKDIR/,
    ],
  ])('refuses %s', (_name, text, problem) => {
    expect(checkDockerfile(text).join('\n')).toMatch(problem)
  })
})
