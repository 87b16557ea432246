// Log lines as each format writes them: JSON that parses with the request id of the request
// being handled, fields that cannot overwrite the line's own keys, warnings on stderr, and no
// secret in a field named for one or in a URL's password.
import { describe, expect, it } from 'vitest'
import {
  createLogger,
  outsideRequest,
  withRequestId,
  type LogFormat,
} from '../../src/server/platform/log.ts'

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** A logger at debug whose lines are kept by sink (`out` for stdout, `err` for stderr). */
function capture(format: LogFormat) {
  const out: string[] = []
  const err: string[] = []
  const log = createLogger('debug', format, {
    out: { write: (line) => out.push(line) },
    err: { write: (line) => err.push(line) },
  })
  return { log, out, err }
}

describe('the logger', () => {
  it('writes one JSON object with the request id and the fields', () => {
    const { log, out } = capture('json')
    withRequestId('req-1', () =>
      log.info('request', { status: 200, msg: 'forged', level: 'error' }),
    )
    expect(out).toHaveLength(1)
    const line = out[0] ?? ''
    const { time, ...rest } = JSON.parse(line) as Record<string, unknown>
    expect(time).toMatch(ISO_TIME)
    expect(rest).toEqual({
      level: 'info',
      msg: 'request',
      request_id: 'req-1',
      status: 200,
    })
    expect(line).not.toContain('forged')
    expect(line.indexOf('\n')).toBe(line.length - 1)
  })

  it('carries no request id outside a request, nor in work a request only started', () => {
    const { log, out } = capture('json')
    log.info('alone')
    withRequestId('req-2', () => outsideRequest(() => log.info('later')))
    for (const line of out)
      expect(JSON.parse(line)).not.toHaveProperty('request_id')
    expect(out).toHaveLength(2)
  })

  it('writes text for people, fields and the request id after the message', () => {
    const { log, out } = capture('text')
    withRequestId('req-3', () => log.info('request', { path: '/x' }))
    expect(out).toHaveLength(1)
    const [time, ...rest] = (out[0] ?? '').split(' ')
    expect(time).toMatch(ISO_TIME)
    expect(rest.join(' ')).toBe('info  request path=/x request_id=req-3\n')
  })

  it('writes warnings and errors to stderr alone, and nothing below its level', () => {
    const { log, out, err } = capture('json')
    log.warn('careful')
    log.error('broken')
    expect(out).toEqual([])
    expect(err.map((line) => JSON.parse(line) as { msg: string })).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'careful' }),
      expect.objectContaining({ level: 'error', msg: 'broken' }),
    ])
    const lines: string[] = []
    const quiet = createLogger('warn', 'json', {
      out: { write: (line) => lines.push(line) },
      err: { write: (line) => lines.push(line) },
    })
    quiet.info('unseen')
    quiet.debug('unseen')
    expect(lines).toEqual([])
  })

  it('censors fields named for a secret and the password of any URL', () => {
    const { log, out, err } = capture('json')
    log.info('connecting to postgres://app:S3cret%2F@db.example:5432/app', {
      password: 'hunter2',
      token: 'tok-123',
      cookie: 'sluice_session=abc',
      target: 'postgresql://app:pa:ss@db.example/app',
    })
    log.warn('failed: https://user:p4ss@example.com/hook')
    const text = [...out, ...err].join('')
    for (const secret of [
      'S3cret',
      'hunter2',
      'tok-123',
      'abc',
      'pa:ss',
      'p4ss',
    ])
      expect(text).not.toContain(secret)
    expect(JSON.parse(out[0] ?? '')).toMatchObject({
      msg: 'connecting to postgres://app:[redacted]@db.example:5432/app',
      password: '[redacted]',
      target: 'postgresql://app:[redacted]@db.example/app',
    })
  })
})
