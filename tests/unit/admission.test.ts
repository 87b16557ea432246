// Admission control (http/admission.ts): each kind counted on its own up to its limit, a
// permit given back when its response closes (once), and past the limit Electric's 503.
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, it } from 'vitest'
import {
  Admission,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  retryAfterSeconds,
} from '../../src/engine/http/admission.ts'

/** What admit() uses of a response: its close, its head and its end. */
function fakeResponse() {
  const written: {
    status?: number
    headers?: Record<string, string>
    body?: string
  } = {}
  const response = Object.assign(new EventEmitter(), {
    writeHead(status: number, headers: Record<string, string>) {
      written.status = status
      written.headers = headers
    },
    end(body: Buffer) {
      written.body = body.toString()
    },
  })
  return { response: response as unknown as ServerResponse, written }
}

it('counts initial and existing requests apart, each up to its own limit', () => {
  const admission = new Admission({ initial: 2, existing: 3 })
  expect([1, 2, 3].map(() => admission.tryAcquire('initial'))).toEqual([
    true,
    true,
    false,
  ])
  expect([1, 2, 3, 4].map(() => admission.tryAcquire('existing'))).toEqual([
    true,
    true,
    true,
    false,
  ])
  admission.release('initial')
  expect(admission.inFlight).toEqual({ initial: 1, existing: 3 })
  expect(admission.tryAcquire('initial')).toBe(true)
  expect(admission.tryAcquire('initial')).toBe(false)
})

it('never counts below zero, whatever is released', () => {
  const admission = new Admission({ initial: 1, existing: 1 })
  admission.release('existing')
  expect(admission.inFlight).toEqual({ initial: 0, existing: 0 })
  expect(admission.tryAcquire('existing')).toBe(true)
  expect(admission.tryAcquire('existing')).toBe(false)
})

it('holds a permit until the response closes, then gives it back', () => {
  const admission = new Admission({ initial: 1, existing: 1 })
  const first = fakeResponse()
  expect(admission.admit('existing', first.response)).toBe(true)
  expect(admission.inFlight.existing).toBe(1)
  first.response.emit('close')
  expect(admission.inFlight.existing).toBe(0)
  expect(first.written.status).toBeUndefined()
})

it('answers past the limit with Electric’s 503: its code, message and a retry-after', () => {
  const admission = new Admission({ initial: 1, existing: 5 })
  expect(admission.admit('initial', fakeResponse().response)).toBe(true)
  const refused = fakeResponse()
  expect(admission.admit('initial', refused.response)).toBe(false)
  expect(admission.inFlight.initial).toBe(1)
  expect(refused.written.status).toBe(503)
  expect(JSON.parse(refused.written.body ?? '')).toEqual({
    code: 'concurrent_request_limit_exceeded',
    message:
      'Concurrent initial request limit exceeded (limit: 1), please retry',
  })
  const headers = refused.written.headers ?? {}
  expect(Number(headers['retry-after'])).toBeGreaterThanOrEqual(6)
  expect(Number(headers['retry-after'])).toBeLessThanOrEqual(10)
  expect(headers).toMatchObject({
    'cache-control': 'no-store',
    'surrogate-control': 'no-store',
    'electric-internal-known-error': 'true',
    'access-control-allow-origin': '*',
    'content-length': String(Buffer.byteLength(refused.written.body ?? '')),
  })
  // The refused request took no permit: its close gives nothing back.
  refused.response.emit('close')
  expect(admission.inFlight.initial).toBe(1)
})

it('spreads retries over 6 to 10 seconds, as Electric', () => {
  expect(retryAfterSeconds(() => 0)).toBe(6)
  expect(retryAfterSeconds(() => 0.5)).toBe(8)
  expect(retryAfterSeconds(() => 0.999999)).toBe(10)
})

it('defaults to Electric’s limits', () => {
  expect(DEFAULT_MAX_CONCURRENT_REQUESTS).toEqual({
    initial: 300,
    existing: 10_000,
  })
})
