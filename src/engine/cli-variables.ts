// The environment variables `npm run engine` reads (cli.ts, config/electric-config.ts), and what
// each means: the second part of docs/configuration.md is generated from this (`npm run
// docs:config`), and a test checks that the engine reads exactly these. Electric's names keep
// Electric's defaults and units; an empty variable counts as unset.
export const ENGINE_CLI_VARIABLES: Readonly<Record<string, string>> = {
  DATABASE_URL:
    'The database to serve, a `postgres://` URL, when neither `--database-url-file PATH` nor `--database-url` is given (the name Electric reads). A file keeps the password out of `ps`. Slot setup and replication use it.',
  ELECTRIC_POOLED_DATABASE_URL:
    'The URL of every other connection (snapshots, catalog reads), a pooler say; the same server as `DATABASE_URL`. Unset: `ELECTRIC_QUERY_DATABASE_URL`, its older name, else `DATABASE_URL`. A pooler must pass the `options` startup parameter (PgBouncer: `ignore_startup_parameters` must not drop it).',
  ELECTRIC_QUERY_DATABASE_URL:
    "`ELECTRIC_POOLED_DATABASE_URL`'s older name, read when that is unset.",
  ELECTRIC_DB_POOL_SIZE:
    'The most connections the pool opens for snapshots and catalog reads, 1 to 1000. Unset: 20, as Electric.',
  ELECTRIC_DATABASE_CA_CERTIFICATE_FILE:
    "A file of trusted certificates: every connection then uses TLS and verifies the server's certificate and name against it, as `sslmode=verify-full` (`verify-ca` in the URL checks the certificate only; `sslmode=disable` with a CA file is refused at start). Unset: as the URL says.",
  ELECTRIC_DATABASE_USE_IPV6:
    "`true`: connect over IPv6 when the database's name has an IPv6 address, else over IPv4. Unset or `false`: the system's order.",
  ELECTRIC_SECRET:
    'The secret every request must carry as `?secret=`, when neither `--secret-file PATH` nor `--secret` is given (the name Electric reads). With it the engine listens on every interface unless `--host` says otherwise.',
  ELECTRIC_INSECURE:
    '`true`: serve without a secret on every interface, warning at start (refused together with a secret). Unset or `false`: Electric refuses to start without a secret; the engine instead listens on loopback only, unless `--host` says otherwise.',
  ELECTRIC_PORT:
    'The port the shape API listens on, when `--port` is not given. Unset: 3000.',
  ELECTRIC_LISTEN_ON_IPV6:
    '`true`: listen on `::` (IPv6 and IPv4) rather than `0.0.0.0` when listening on every interface.',
  ELECTRIC_STORAGE_DIR:
    "Where shape logs live, when `--data-dir` is not given. Unset: `./.sluice-engine`, not Electric's `./persistent`, so an engine upgraded in place keeps its logs.",
  ELECTRIC_REPLICATION_STREAM_ID:
    "Names the slot `electric_slot_ID` and the publication `electric_publication_ID`, as Electric does: an unquoted identifier (letters, digits, `_`; lower-cased), at most 42 characters. Unset: `sluice_standalone_DATABASE` (the database's name), one pair per database, since slots are shared by a cluster's databases; an engine whose slot on this database is the older `sluice_standalone` keeps using it.",
  ELECTRIC_MANUAL_TABLE_PUBLISHING:
    '`true`: the engine creates, alters and drops no publication and alters no table. The publication must exist (else replication waits, saying the `CREATE PUBLICATION` to run); a shape on a table not in it, or without `REPLICA IDENTITY FULL`, is answered 503 naming the SQL to run. A publication made for Electric by its docs is `electric_publication_default`: give `ELECTRIC_REPLICATION_STREAM_ID=default` to use it.',
  ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD:
    'Where log answers end, in bytes, when `--chunk-bytes` is not given: at least 10000. Unset: 10485760 (10 MiB), as Electric.',
  ELECTRIC_LONG_POLL_TIMEOUT:
    'How long a live request waits for a change, in milliseconds (1 to 3600000). Unset: 20000, as Electric.',
  ELECTRIC_CACHE_MAX_AGE:
    '`max-age` of cacheable shape answers, in seconds. Unset: 60, as Electric.',
  ELECTRIC_CACHE_STALE_AGE:
    '`stale-while-revalidate` of cacheable shape answers, in seconds. Unset: 300, as Electric.',
  ELECTRIC_MAX_SHAPES:
    'The most shapes kept; past it the least recently used are ended (clients get 409 and start again). Unset: no limit.',
  ELECTRIC_EXPERIMENTAL_MAX_SHAPES:
    "`ELECTRIC_MAX_SHAPES`'s older name, read when that is unset.",
  ELECTRIC_MAX_CONCURRENT_REQUESTS:
    'The most requests served at once, as JSON: `{"initial": 300, "existing": 10000}` (initial syncs, `offset=-1`; and the rest); a key left out keeps its default. Past it: 503 with `retry-after`.',
  ELECTRIC_REPLICATION_IDLE_TIMEOUT:
    'After this long without changes the replication connection is let go (a request opens it again), as `500ms`, `30s` or `5min` (no unit: milliseconds): 0 or at least 30s. Unset: 0, never.',
  ELECTRIC_ENABLE_INTEGRATION_TESTING:
    '`true`: `DELETE /v1/shape` rotates a shape, as `--allow-shape-deletion`.',
  ELECTRIC_PROMETHEUS_PORT:
    "As `METRICS_PORT` (Electric's name; the metrics are Sluice's own). Both set: they must agree.",
  METRICS_PORT:
    'Serves `GET /metrics` (Prometheus text format) on this port, as the server does. Unset: none.',
  METRICS_HOST:
    'The interface the metrics port listens on. Unset: `127.0.0.1`.',
}
