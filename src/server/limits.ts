// How much one request may carry: every body cap of the server, named once. Rates and counts
// that operators tune are read from the environment (env.ts) with their defaults there.

/** JSON API bodies: the largest legitimate one (a source create) is well under 3 KB. */
export const JSON_BODY_LIMIT_BYTES = 8 * 1024

/** /ingest forwards posthog-js batches, which hold many events and can be large. */
export const INGEST_BODY_LIMIT_BYTES = 1024 * 1024
