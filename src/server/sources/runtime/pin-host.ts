// The readiness check's address guard, applied to every connection Sluice makes to a source:
// a source is a standing order to connect, and the name it was added with may later resolve
// elsewhere (DNS rebinding). The engine calls this on each connect and connects to the answer.
import { AddressRefusedError, type HostPinner } from '../../../engine/index.ts'
import {
  pinAddress,
  RefusedTargetError,
  UnresolvedHostError,
  type Resolver,
} from '../../validation/guard.ts'

export type SourceTargetSettings = {
  /** env.allowPrivateDatabaseTargets, as the readiness check and the create API read it. */
  allowPrivate: boolean
  resolve: Resolver
}

/** A lookup that fails reads like the driver's own (ENOTFOUND): unreachable, retried. */
class HostNotFoundError extends Error {
  readonly code = 'ENOTFOUND'
}

export function sourceHostPinner(settings: SourceTargetSettings): HostPinner {
  return async (host) => {
    try {
      return await pinAddress(host, settings)
    } catch (error) {
      // The guard's own messages are written for the person pasting a URL; the engine's
      // errors become a source's state_reason through describeProblem.
      if (error instanceof RefusedTargetError) throw new AddressRefusedError()
      if (error instanceof UnresolvedHostError)
        throw new HostNotFoundError('The database host name did not resolve.')
      throw error
    }
  }
}
