/** A shape request the engine cannot serve yet (database unreachable): 503 + retry-after. */
export class UnavailableError extends Error {}
