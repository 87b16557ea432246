// Calls to a provider's API for one user: the connection's bearer token, a time limit, the
// answer checked by zod. A 401 means the grant is gone: the connection is forgotten and the
// caller answers 401 (not connected). Any other failure is an UpstreamError (our 502).
import type { z } from 'zod'
import type { AppDeps } from '../platform/http/context.ts'
import { UPSTREAM_TIMEOUT_MS } from '../platform/limits.ts'
import {
  accessToken,
  forgetConnection,
  NotConnectedError,
} from './connections.ts'
import type { ProviderName, ProviderOAuth } from './oauth.ts'

/** The provider failed or answered something unexpected; `message` is safe to show. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message)
  }
}

const LABEL: Record<ProviderName, string> = {
  supabase: 'Supabase',
  neon: 'Neon',
}

export type UpstreamRequest = {
  method?: 'GET' | 'PATCH' | 'POST'
  body?: unknown
}

/** One API call with an explicit token (a personal token being checked, or a caller's). */
export async function callWithToken<T>(
  provider: ProviderName,
  url: string,
  token: string,
  schema: z.ZodType<T>,
  request: UpstreamRequest = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(request.body === undefined
          ? {}
          : { 'content-type': 'application/json' }),
      },
      body:
        request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    })
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError'
    throw new UpstreamError(
      timedOut
        ? `${LABEL[provider]} did not answer within ${UPSTREAM_TIMEOUT_MS / 1000} seconds.`
        : `${LABEL[provider]} could not be reached.`,
    )
  }
  if (response.status === 401) {
    await response.body?.cancel()
    throw new NotConnectedError()
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new UpstreamError(
      `${LABEL[provider]} answered ${response.status}.`,
      response.status,
    )
  }
  const parsed = schema.safeParse(await response.json().catch(() => undefined))
  if (!parsed.success)
    throw new UpstreamError(
      `${LABEL[provider]} sent an answer we did not expect.`,
    )
  return parsed.data
}

/** A user's view of one provider's API. */
export type ProviderApi = {
  get<T>(path: string, schema: z.ZodType<T>): Promise<T>
  send<T>(
    path: string,
    schema: z.ZodType<T>,
    request: UpstreamRequest,
  ): Promise<T>
}

export function providerApi(
  deps: AppDeps,
  userId: string,
  provider: ProviderName,
  baseUrl: string,
  oauth: ProviderOAuth | null,
): ProviderApi {
  const key = deps.keys['provider-tokens']
  const send = async <T>(
    path: string,
    schema: z.ZodType<T>,
    request: UpstreamRequest,
  ): Promise<T> => {
    const token = await accessToken(deps.db, key, userId, provider, oauth)
    try {
      return await callWithToken(
        provider,
        `${baseUrl.replace(/\/$/, '')}${path}`,
        token,
        schema,
        request,
      )
    } catch (error) {
      if (error instanceof NotConnectedError)
        await forgetConnection(deps.db, userId, provider)
      throw error
    }
  }
  return { get: (path, schema) => send(path, schema, {}), send }
}
