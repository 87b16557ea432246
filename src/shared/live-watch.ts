// One long-poll for all the live syncs of a browser profile (POST /v1/watch): the request and
// answer, shared by the server (gateway/watch.ts) and the app (lib/live-watch.ts).
import { z } from 'zod'

export const LIVE_WATCH_PATH = '/v1/watch'

/**
 * Bounds on one watch: a profile follows a few shapes per open page and per team, far fewer
 * than this; a /v1/shape request carries its where clause, which the Shape Explorer caps
 * well below the length here.
 */
export const LIVE_WATCH_MAX_REQUESTS = 256
const LIVE_WATCH_MAX_REQUEST_LENGTH = 8 * 1024

/** Each live request as its path and query, as the client would send it. */
export const liveWatchBodySchema = z.object({
  requests: z
    .array(
      z
        .string()
        .max(LIVE_WATCH_MAX_REQUEST_LENGTH)
        .regex(/^\/[^/]/, 'must be a path on this server'),
    )
    .min(1)
    .max(LIVE_WATCH_MAX_REQUESTS),
})

/**
 * `ready`: the positions (in `requests`) of those the server would answer now, or that it will
 * not wait on for the client (refused, served elsewhere): each is sent as it is. Empty when the
 * watch timed out with nothing new. `gone`: dashboard shapes no longer the user's (a source
 * deleted, a team left), which their route would answer 404: the client ends them without
 * asking (a 404 is a console error in every browser).
 */
export const liveWatchAnswerSchema = z.object({
  ready: z.array(z.number().int().nonnegative()),
  gone: z.array(z.number().int().nonnegative()).default([]),
})
export type LiveWatchAnswer = z.infer<typeof liveWatchAnswerSchema>
