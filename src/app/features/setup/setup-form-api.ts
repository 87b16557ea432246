// The setup page's two calls as values that never throw: the form, or the page's text for a
// load failure; the new source's id and secret, or the text to show (the server's message
// for a 400, else its message, else 'Failed to connect source').
import { setupFormCalls } from '../../../shared/api-calls.ts'
import { idSchema } from '../../../shared/entities.ts'
import type { PublicSetupForm } from '../../../shared/setup-forms.ts'
import type { Region } from '../../../shared/sources.ts'
import { ApiError, api } from '../../lib/api.ts'

export const LOAD_FAILED = 'Failed to load setup form. It may not exist.'
const INVALID_URL = 'Invalid database URL provided'
const CONNECT_FAILED = 'Failed to connect source'

export async function loadSetupForm(
  formId: string,
): Promise<PublicSetupForm | null> {
  // No form has an id that is not a uuid: nothing to ask (the server's 404 would be logged).
  if (!idSchema.safeParse(formId).success) return null
  try {
    const { method, path, response } = setupFormCalls.read
    return await api(path(formId), response, { method })
  } catch {
    return null
  }
}

export type UseAnswer =
  | { ok: true; id: string; source_secret: string }
  | { ok: false; message: string }

export async function submitSetupForm(
  formId: string,
  body: { database_url: string; region: Region },
): Promise<UseAnswer> {
  try {
    const { method, path, response } = setupFormCalls.use
    const created = await api(path(formId), response, { method, body })
    return { ok: true, ...created }
  } catch (error) {
    if (!(error instanceof ApiError))
      return { ok: false, message: CONNECT_FAILED }
    const said =
      error.body && typeof error.body === 'object' && 'message' in error.body
    const message = said ? error.message : ''
    if (error.status === 400)
      return { ok: false, message: message || INVALID_URL }
    return { ok: false, message: message || CONNECT_FAILED }
  }
}
