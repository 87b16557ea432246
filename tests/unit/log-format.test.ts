// Log lines as each format writes them: JSON that parses with the request id of the request
// being handled, and fields that cannot overwrite the line's own keys.
import { describe, expect, it } from 'vitest'
import {
  formatLine,
  outsideRequest,
  withRequestId,
} from '../../src/server/platform/log.ts'

const time = new Date('2026-01-02T03:04:05.000Z')

describe('formatLine', () => {
  it('writes one JSON object with the request id and the fields', () => {
    const line = withRequestId('req-1', () =>
      formatLine(
        'json',
        'info',
        'request',
        { status: 200, msg: 'forged' },
        time,
      ),
    )
    expect(JSON.parse(line)).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'info',
      msg: 'request',
      request_id: 'req-1',
      status: 200,
    })
    expect(line).not.toContain('\n')
  })

  it('carries no request id outside a request, nor in work a request only started', () => {
    expect(JSON.parse(formatLine('json', 'warn', 'alone', {}, time))).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'warn',
      msg: 'alone',
    })
    const started = withRequestId('req-2', () =>
      outsideRequest(() => formatLine('json', 'info', 'later', {}, time)),
    )
    expect(JSON.parse(started)).not.toHaveProperty('request_id')
  })

  it('writes text for people, fields and the request id after the message', () => {
    expect(
      withRequestId('req-3', () =>
        formatLine('text', 'info', 'request', { path: '/x' }, time),
      ),
    ).toBe('2026-01-02T03:04:05.000Z info  request path=/x request_id=req-3')
  })
})
