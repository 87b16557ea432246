// The URL parser lives in src/shared/postgres-url.ts, so the app can run it too; this module
// keeps the server's imports where they were.
export {
  DatabaseUrlError,
  parseDatabaseUrl,
  SSL_MODES,
  type DatabaseTarget,
  type SslMode,
} from '../../shared/postgres-url.ts'
