// The engine's one door: everything the server may use of it (lint keeps src/server from reaching
// past this file). The engine attaches Postgres databases and serves live shapes of their tables
// over the Electric HTTP shape protocol; besides, it lends a host of its own shape routes the
// protocol's parts, connects to databases a user names through pinned addresses, compiles where
// clauses, removes replication it set up, and measures itself for Prometheus. Tests and scripts
// may still reach inside; the layout behind this file is in README.md.

// Engines and their databases: attach a database, and the shapes, stream and status over it.
export { Engine, type AttachOptions } from './engine.ts'
export type { ShapeDatabase } from './database.ts'
export type { Invalidation, ShapeFacts } from './shapes/shape.ts'
export type { SupervisorStatus } from './replication/supervisor.ts'

// The shape protocol's parts, for a host that serves shapes under routes of its own.
export {
  parseDefinition,
  parseLive,
  parseParams,
  parseProtocol,
  type Errors,
  type ProtocolErrors,
} from './http/request.ts'
export {
  LONG_POLL_MS,
  serveShape,
  serveShapeQuery,
} from './http/serve-shape.ts'
export { HOSTED_TIP_MAX_AGE } from './http/answer-headers.ts'
export {
  EXPOSED_HEADERS,
  invalid,
  invalidBody,
  jsonResponse,
} from './http/responses.ts'
export { deleteShape } from './http/delete-shape.ts'
export { shapeMessages, type ShapeMessages } from './http/shape-messages.ts'
export { shapeTimeline, type ShapeTimeline } from './http/shape-timeline.ts'
export { requestParts } from './http/node-request.ts'
export { refuseNul } from './http/nul.ts'
export { MAX_BODY_BYTES } from './http/read-body.ts'
export {
  whichWouldAnswer,
  wouldAnswerNow,
  type WatchedRequest,
} from './http/watch.ts'

// Tables and where clauses, as shapes read them (the server's explorer counts rows with them).
export {
  qualifiedName,
  type ShapeDefinition,
  type TableName,
} from './shapes/definition.ts'
export { loadTableInfo } from './shapes/table-info.ts'
export { compileWhere, WhereError, type CompiledWhere } from './where/index.ts'

// Connections to a database: a user's through a pinned address, with the engine's settings.
export {
  ADDRESS_REFUSED,
  AddressRefusedError,
  pinnedConnection,
  type HostPinner,
} from './pg/pinned-socket.ts'
export { SESSION_OPTIONS } from './database-config.ts'

// The slot and publication the engine creates for a database, named and removed.
export { replicationNames, type ReplicationNames } from './replication/names.ts'
export { dropSlotAndPublication } from './replication/slot.ts'

// Metrics and health, for the process's metrics port.
export { createMetrics, type Metrics } from './ops/metrics.ts'
export { metricsApp } from './ops/metrics-app.ts'
export { engineCounters, type SourceFacts } from './ops/facts.ts'
export { measureSlot, type HealthReading } from './ops/slot-measure.ts'

// Files on disk are the process user's alone; secrets on a command line stay out of `ps`.
export {
  PRIVATE_DIR,
  tightenedNotice,
  tightenTree,
} from './storage/private-files.ts'
export { readSecretOption, type SecretOption } from './secret-option.ts'
