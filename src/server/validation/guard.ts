// The one lookup of a check: resolve the host once, refuse it if any answer is off limits, and
// hand back the address to pin, so a second lookup cannot rebind the name to an inner address.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import {
  classifyAddress,
  classifyName,
  type AddressClass,
} from './addresses.ts'

/** Every address a host name resolves to (IP literals need no resolver). */
export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** A target the guard will not connect to; the message is safe to show. */
export class RefusedTargetError extends Error {}

/** The name did not resolve: a connection failure, not bad input. */
export class UnresolvedHostError extends Error {}

const REFUSED =
  'This host is not allowed: Sluice only checks databases on public internet addresses.'

function allowed(cls: AddressClass, allowPrivate: boolean): boolean {
  return cls === 'public' || (cls === 'private' && allowPrivate)
}

/** Returns the address to connect to, or throws RefusedTargetError / UnresolvedHostError. */
export async function pinAddress(
  host: string,
  options: { resolve: Resolver; allowPrivate: boolean },
): Promise<string> {
  const literal = isIP(host) !== 0
  if (!literal && !allowed(classifyName(host), options.allowPrivate))
    throw new RefusedTargetError(REFUSED)
  let addresses: string[]
  try {
    addresses = literal ? [host] : await options.resolve(host)
  } catch {
    throw new UnresolvedHostError(`Could not resolve the host "${host}".`)
  }
  const first = addresses[0]
  if (first === undefined)
    throw new UnresolvedHostError(`Could not resolve the host "${host}".`)
  // Every answer, not just the first: a name may list a public and an inner address.
  for (const address of addresses)
    if (!allowed(classifyAddress(address), options.allowPrivate))
      throw new RefusedTargetError(REFUSED)
  return first
}
