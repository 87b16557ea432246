// The source calls of /api/v1/sources, through the app's one fetch wrapper, and how their
// failures read.
import { sourceCalls } from '../../../shared/api-calls.ts'
import type {
  CreateSourceRequest,
  UpdateSourceRequest,
} from '../../../shared/sources.ts'
import { ApiError, api } from '../../lib/api.ts'

export function createSource(
  request: CreateSourceRequest,
  skipValidation: boolean,
) {
  const { method, path, response } = sourceCalls.create
  return api(
    `${path()}${skipValidation ? '?skip_validation=true' : ''}`,
    response,
    { method, body: request },
  )
}

/** PATCH /api/v1/sources/{id}: name, project and environment, each when sent. */
export function updateSource(sourceId: string, request: UpdateSourceRequest) {
  const { method, path, response } = sourceCalls.update
  return api(path(sourceId), response, { method, body: request })
}

export function deleteSource(sourceId: string, force: boolean) {
  const { method, path, response } = sourceCalls.remove
  return api(
    `${path(sourceId)}${force ? '?force_delete=true' : ''}`,
    response,
    {
      method,
    },
  )
}

export function clearSourceCache(sourceId: string) {
  const { method, path, response } = sourceCalls.restart
  return api(path(sourceId), response, { method, body: { clear_cache: true } })
}

/** A new secret; the previous one works until the answer's `previous_valid_until`. */
export function rotateSecret(sourceId: string) {
  const { method, path, response } = sourceCalls.rotateSecret
  return api(path(sourceId), response, { method })
}

/** The previous secret stops working now. */
export function endSecretGrace(sourceId: string) {
  const { method, path, response } = sourceCalls.endSecretGrace
  return api(path(sourceId), response, { method })
}

/** The dashboard's own call: rotates one of the source's live shapes (its clients refetch). */
export function deleteLiveShape(sourceId: string, handle: string) {
  const { method, path, response } = sourceCalls.deleteLiveShape
  return api(path(sourceId, handle), response, { method })
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body
  return JSON.stringify(body)
}

/** 'Code {status}: {body}' for a refused call; the error's own text otherwise. */
export function codeMessage(error: unknown): string {
  if (error instanceof ApiError)
    return `Code ${error.status}: ${bodyText(error.body ?? error.message)}`
  return error instanceof Error ? error.message : String(error)
}

/** The server's message for a refused call; the error's own text otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
