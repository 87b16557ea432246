// The validation routine without a DOM: trim, empty, failures as results, the page's texts, reset
// and a newer call superseding an older one.
import { describe, expect, it, vi } from 'vitest'
import { createValidationController } from '../../src/app/features/validation/validation-controller.ts'
import type { FetchLike } from '../../src/app/features/validation/validation-request.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'

const ready = {
  has_replication_permissions: true,
  has_logical_wal: true,
  can_connect: true,
  can_connect_without_replication: true,
  has_create_privilege: true,
}

const answer = (status: number, body: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (typeof body === 'string' ? body : JSON.stringify(body)),
})

const nothingReady = (message: string) => ({
  has_replication_permissions: false,
  has_logical_wal: false,
  can_connect: false,
  can_connect_without_replication: false,
  has_create_privilege: false,
  connection_error: message,
})

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe('validation routine', () => {
  it('posts the trimmed URL to the relative path', async () => {
    const fetchFn = vi.fn<FetchLike>(async () => answer(200, ready))
    const controller = createValidationController(fetchFn)
    const outcome = await controller.validate('  postgresql://u:p@h/db \n')
    expect(fetchFn).toHaveBeenCalledOnce()
    const [path, init] = fetchFn.mock.calls[0]!
    expect(path).toBe(VALIDATE_DATABASE_URL_PATH)
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({
      database_url: 'postgresql://u:p@h/db',
    })
    expect(outcome).toEqual({ result: ready, error: null })
    expect(controller.getState()).toEqual({
      result: ready,
      isValidating: false,
      error: null,
    })
  })

  it('a URL the server would refuse gets its message without a request', async () => {
    const fetchFn = vi.fn<FetchLike>()
    const controller = createValidationController(fetchFn)
    const outcome = await controller.validate('postgresql://u@h:abc/db')
    expect(fetchFn).not.toHaveBeenCalled()
    expect(outcome).toEqual({
      result: nothingReady('The port must be a number from 1 to 65535.'),
      error: 'The port must be a number from 1 to 65535.',
    })
  })

  it('does nothing for an empty or blank URL', async () => {
    const fetchFn = vi.fn<FetchLike>()
    const controller = createValidationController(fetchFn)
    const listener = vi.fn()
    controller.subscribe(listener)
    expect(await controller.validate('')).toBeNull()
    expect(await controller.validate('   \t')).toBeNull()
    expect(fetchFn).not.toHaveBeenCalled()
    expect(listener).not.toHaveBeenCalled()
    expect(controller.getState()).toEqual({
      result: null,
      isValidating: false,
      error: null,
    })
  })

  it('is validating while the call is in flight, and clears the previous result and error', async () => {
    const pending = deferred<ReturnType<typeof answer>>()
    const fetchFn = vi
      .fn<FetchLike>()
      .mockResolvedValueOnce(answer(500, { message: 'boom' }))
      .mockReturnValueOnce(pending.promise)
    const controller = createValidationController(fetchFn)
    await controller.validate('postgresql://u@a')
    expect(controller.getState().error).toBe('boom')

    const second = controller.validate('postgresql://u@b')
    expect(controller.getState()).toEqual({
      result: null,
      isValidating: true,
      error: null,
    })
    pending.resolve(answer(200, ready))
    await second
    expect(controller.getState()).toEqual({
      result: ready,
      isValidating: false,
      error: null,
    })
  })

  it('turns a network failure into a result with nothing ready', async () => {
    const controller = createValidationController(async () => {
      throw new TypeError('Failed to fetch')
    })
    const text = 'Failed to validate database connection'
    expect(await controller.validate('postgresql://u@h/db')).toEqual({
      result: nothingReady(text),
      error: text,
    })
    expect(controller.getState().result).toEqual(nothingReady(text))
  })

  it.each([
    [400, { message: 'Invalid port: abc' }, 'Invalid port: abc'],
    [
      400,
      {},
      'Invalid database URL provided. Special characters must be URL encoded.',
    ],
    [
      400,
      'not json',
      'Invalid database URL provided. Special characters must be URL encoded.',
    ],
    [429, { message: 'Too many requests' }, 'Too many requests'],
    [500, { error: 'Internal error' }, 'Internal error'],
    [500, { message: 'm', error: 'e' }, 'm'],
    [502, '<html>bad gateway</html>', 'Failed to validate database connection'],
    [500, {}, 'Failed to validate database connection'],
  ])('status %i with %j reads %j', async (status, body, text) => {
    const controller = createValidationController(async () =>
      answer(status, body),
    )
    expect(await controller.validate('postgresql://u@h/db')).toEqual({
      result: nothingReady(text),
      error: text,
    })
    expect(controller.getState()).toEqual({
      result: nothingReady(text),
      isValidating: false,
      error: text,
    })
  })

  it('treats an unreadable 200 answer as a failure', async () => {
    const controller = createValidationController(async () =>
      answer(200, { can_connect: 'yes' }),
    )
    expect((await controller.validate('postgresql://u@h/db'))?.error).toBe(
      'Failed to validate database connection',
    )
  })

  it('reset clears result, error and flag, and drops an answer in flight', async () => {
    const pending = deferred<ReturnType<typeof answer>>()
    const fetchFn = vi
      .fn<FetchLike>()
      .mockResolvedValueOnce(answer(400, { message: 'bad' }))
      .mockReturnValueOnce(pending.promise)
    const controller = createValidationController(fetchFn)
    await controller.validate('postgresql://u@a')
    controller.reset()
    expect(controller.getState()).toEqual({
      result: null,
      isValidating: false,
      error: null,
    })

    const late = controller.validate('postgresql://u@b')
    controller.reset()
    expect(fetchFn.mock.calls[1]![1].signal?.aborted).toBe(true)
    pending.resolve(answer(200, ready))
    expect(await late).toBeNull()
    expect(controller.getState()).toEqual({
      result: null,
      isValidating: false,
      error: null,
    })
  })

  it('a newer call supersedes an older one, whichever answers first', async () => {
    const older = deferred<ReturnType<typeof answer>>()
    const newer = deferred<ReturnType<typeof answer>>()
    const fetchFn = vi
      .fn<FetchLike>()
      .mockReturnValueOnce(older.promise)
      .mockReturnValueOnce(newer.promise)
    const controller = createValidationController(fetchFn)
    const first = controller.validate('postgresql://u@old')
    const second = controller.validate('postgresql://u@new')
    expect(fetchFn.mock.calls[0]![1].signal?.aborted).toBe(true)

    newer.resolve(answer(200, ready))
    expect(await second).toEqual({ result: ready, error: null })
    older.resolve(answer(400, { message: 'stale' }))
    expect(await first).toBeNull()
    expect(controller.getState()).toEqual({
      result: ready,
      isValidating: false,
      error: null,
    })
  })
})
