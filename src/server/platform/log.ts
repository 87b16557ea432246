// A small leveled logger. Callers pass paths and ids, never URLs with credentials or tokens.
// LOG_FORMAT=json writes one JSON object per line (time, level, msg, request_id, fields) for
// log collectors; text is for people. A line written while a request is handled carries its
// request id (http/request-id.ts runs the request inside withRequestId).
import { AsyncLocalStorage } from 'node:async_hooks'

export type Level = 'debug' | 'info' | 'warn' | 'error'
export type LogFormat = 'text' | 'json'
/** Extra facts of a line: ids, counts, durations. Never a URL with credentials or a token. */
export type LogFields = Record<string, string | number | boolean | null>
export type Logger = Record<
  Level,
  (message: string, fields?: LogFields) => void
>

const order: Level[] = ['debug', 'info', 'warn', 'error']
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

/** One line as the format writes it. */
export function formatLine(
  format: LogFormat,
  level: Level,
  message: string,
  fields: LogFields = {},
  time = new Date(),
): string {
  const requestId = currentRequestId()
  if (format === 'json')
    // The fields first: none of them can overwrite the line's own keys.
    return JSON.stringify({
      ...fields,
      time: time.toISOString(),
      level,
      msg: message,
      ...(requestId ? { request_id: requestId } : {}),
    })
  const extra = Object.entries({ ...fields, request_id: requestId })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
  return [time.toISOString(), level.padEnd(5), message, ...extra].join(' ')
}

export function createLogger(min: Level, format: LogFormat = 'text'): Logger {
  const at = (level: Level) => (message: string, fields?: LogFields) => {
    if (order.indexOf(level) < order.indexOf(min)) return
    const line = formatLine(format, level, message, fields)
    if (level === 'error' || level === 'warn') console.error(line)
    else console.log(line)
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
