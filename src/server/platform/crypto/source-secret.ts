// A source's secret: the credential apps send to /v1/shape (gateway/source-shapes.ts). Made when
// a source is created, and made anew when a claim gives the source to a team.
import { randomBytes } from 'node:crypto'

/** 256 random bits, URL-safe: apps send it in a query string. */
export const newSourceSecret = (): string =>
  randomBytes(32).toString('base64url')
