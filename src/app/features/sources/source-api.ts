// The source calls of spec §7, through the app's one fetch wrapper, and how their failures read.
import {
  createSourceResponseSchema,
  renameSourceResponseSchema,
  shapeDeletedResponseSchema,
  sourceChangeResponseSchema,
  type CreateSourceRequest,
  type RenameSourceRequest,
} from '../../../shared/sources.ts'
import { ApiError, api } from '../../lib/api.ts'
import {
  API_MOUNTS,
  liveShapePath,
  sourcePath,
  sourceRestartPath,
} from '../../../shared/api-routes.ts'

export function createSource(
  request: CreateSourceRequest,
  skipValidation: boolean,
) {
  return api(
    `${API_MOUNTS.sources}${skipValidation ? '?skip_validation=true' : ''}`,
    createSourceResponseSchema,
    { method: 'PUT', body: request },
  )
}

/** PATCH /api/v1/sources/{id}: not in spec §7, which has no call that updates a source. */
export function renameSource(sourceId: string, request: RenameSourceRequest) {
  return api(sourcePath(sourceId), renameSourceResponseSchema, {
    method: 'PATCH',
    body: request,
  })
}

export function deleteSource(sourceId: string, force: boolean) {
  return api(
    `${sourcePath(sourceId)}${force ? '?force_delete=true' : ''}`,
    sourceChangeResponseSchema,
    { method: 'DELETE' },
  )
}

export function clearSourceCache(sourceId: string) {
  return api(sourceRestartPath(sourceId), sourceChangeResponseSchema, {
    method: 'POST',
    body: { clear_cache: true },
  })
}

/** Not in spec §7: rotates one of the source's live shapes (its clients refetch). */
export function deleteLiveShape(sourceId: string, handle: string) {
  return api(liveShapePath(sourceId, handle), shapeDeletedResponseSchema, {
    method: 'DELETE',
  })
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body
  return JSON.stringify(body)
}

/** 'Code {status}: {body}' (spec §8) for a refused call; the error's own text otherwise. */
export function codeMessage(error: unknown): string {
  if (error instanceof ApiError)
    return `Code ${error.status}: ${bodyText(error.body ?? error.message)}`
  return error instanceof Error ? error.message : String(error)
}

/** The server's message for a refused call; the error's own text otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
