// The server's leveled logger, on pino. Callers pass paths and ids, never URLs with credentials
// or tokens; as a second guard, fields named for a secret are censored and a URL's password is
// cut from any text. LOG_FORMAT=json writes one JSON object per line (time, level, msg,
// request_id, fields) for log collectors; text is for people. debug and info go to stdout,
// warn and error to stderr. A line written while a request is handled carries its request id
// (http/request-id.ts runs the request inside withRequestId).
import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'

export type Level = 'debug' | 'info' | 'warn' | 'error'
export type LogFormat = 'text' | 'json'
/** Extra facts of a line: ids, counts, durations. Never a URL with credentials or a token. */
type LogFields = Record<string, string | number | boolean | null>
export type Logger = Record<
  Level,
  (message: string, fields?: LogFields) => void
>
/** Where lines go: one string per line, newline included. */
export type LogSink = { write(line: string): void }

const requests = new AsyncLocalStorage<string>()

/** Runs `fn` as the handling of one request: the lines it logs carry `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requests.run(requestId, fn)
}

/**
 * Runs `fn` as no request's work: what a request only starts (a reconcile pass, a stream that
 * runs for hours) must not log under that request's id ever after.
 */
export function outsideRequest<T>(fn: () => T): T {
  return requests.exit(fn)
}

/** The id of the request being handled here, if any. */
export const currentRequestId = (): string | undefined => requests.getStore()

/** A line's own keys: a field of the same name is dropped rather than written twice. */
const OWN_KEYS = new Set(['time', 'level', 'msg', 'request_id'])

/** Field names whose values are secrets wherever they come from. */
const SECRET_FIELDS = [
  'password',
  'token',
  'secret',
  'source_secret',
  'previous_source_secret',
  'api_secret',
  'cookie',
  'authorization',
  'database_url',
]

/** `scheme://user:password@`: the password part of a URL's credentials. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@]*@/gi
const withoutUrlPassword = (text: string) =>
  text.replace(URL_PASSWORD, '$1:[redacted]@')

function cleanFields(fields: LogFields): LogFields {
  const clean: LogFields = {}
  for (const [key, value] of Object.entries(fields)) {
    if (OWN_KEYS.has(key)) continue
    clean[key] = typeof value === 'string' ? withoutUrlPassword(value) : value
  }
  return clean
}

/** pino's JSON line as text for people: time, level, message, then `key=value` pairs. */
function asText(line: string): string {
  const {
    time,
    level,
    msg,
    request_id: requestId,
    ...fields
  } = JSON.parse(line) as Record<string, unknown>
  const extra = Object.entries({ ...fields, request_id: requestId })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
  return `${[time, String(level).padEnd(5), msg, ...extra].join(' ')}\n`
}

// Written synchronously, as console.log did: index.ts calls process.exit right after its last
// lines, and a buffered write would lose them.
const standardSinks = () => ({
  out: pino.destination({ dest: 1, sync: true }),
  err: pino.destination({ dest: 2, sync: true }),
})

export function createLogger(
  min: Level,
  format: LogFormat = 'text',
  sinks: { out: LogSink; err: LogSink } = standardSinks(),
): Logger {
  const shaped = (sink: LogSink): LogSink =>
    format === 'json' ? sink : { write: (line) => sink.write(asText(line)) }
  const logger = pino(
    {
      level: min,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId()
        return requestId ? { request_id: requestId } : {}
      },
      redact: { paths: SECRET_FIELDS, censor: '[redacted]' },
    },
    pino.multistream(
      [
        { level: 'debug', stream: shaped(sinks.out) },
        { level: 'warn', stream: shaped(sinks.err) },
      ],
      // Each line to the one sink of the highest level it reaches: warn to stderr alone.
      { dedupe: true },
    ),
  )
  const at = (level: Level) => (message: string, fields?: LogFields) => {
    if (logger.isLevelEnabled(level))
      logger[level](cleanFields(fields ?? {}), withoutUrlPassword(message))
  }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}
