// How the CLI ends: 0 done, 1 the command failed (refused, unreachable, timed out), 2 it was
// used wrongly (unknown command or option, a missing value). Thrown where found, caught once in
// main.ts, which prints the message and exits with the code.

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const

export class CliError extends Error {
  constructor(
    message: string,
    readonly code: (typeof EXIT)['failure' | 'usage'] = EXIT.failure,
  ) {
    super(message)
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage)
