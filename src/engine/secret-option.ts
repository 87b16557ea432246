// A secret a command line takes (a database URL holding its password, a shared secret): from
// `--NAME-file PATH`, from an environment variable, or from `--NAME VALUE`. An argument shows in
// `ps` to every user of the machine, so that form still works but warns; the other two do not
// show. Used by the engine's CLI and the admin tool's.
import { closeSync, openSync, readSync } from 'node:fs'

/** A secret file is a line or so; anything bigger is the wrong file. */
const SECRET_FILE_MAX_BYTES = 64 * 1024

export type SecretOption = {
  /** The option's name without dashes (`database-url`); its file form adds `-file`. */
  name: string
  /** The environment variable read when neither option is given. */
  variable: string
}

export type SecretRead =
  | { ok: true; value: string | undefined; warning?: string }
  | { ok: false; error: string }

/** The secret from `--NAME`, `--NAME-file` or the variable in `vars`, in that order. */
export function readSecretOption(
  option: SecretOption,
  values: Record<string, unknown>,
  vars: Record<string, string | undefined>,
): SecretRead {
  const given = values[option.name]
  const file = values[`${option.name}-file`]
  const flag = `--${option.name}`
  if (typeof given === 'string' && typeof file === 'string')
    return { ok: false, error: `give ${flag} or ${flag}-file, not both` }
  if (typeof file === 'string') return readSecretFile(`${flag}-file`, file)
  if (typeof given === 'string')
    return {
      ok: true,
      value: given,
      warning: `${flag} on the command line shows in ps to every user of this machine; use ${flag}-file PATH or ${option.variable} instead`,
    }
  return { ok: true, value: vars[option.variable] || undefined }
}

function readSecretFile(flag: string, path: string): SecretRead {
  let text: string
  try {
    text = readBounded(path)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return {
      ok: false,
      error:
        error instanceof TooLarge
          ? `${flag}: ${path} is larger than ${SECRET_FILE_MAX_BYTES} bytes`
          : `${flag}: cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}`,
    }
  }
  // `echo secret > file` ends the line; the secret does not.
  const value = text.replace(/[\r\n]+$/, '')
  return value
    ? { ok: true, value }
    : { ok: false, error: `${flag}: ${path} is empty` }
}

class TooLarge extends Error {}

// Read in steps rather than by the file's size: a pipe (`--secret-file <(pass show x)`) has none.
function readBounded(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(SECRET_FILE_MAX_BYTES + 1)
    let length = 0
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
      if (length > SECRET_FILE_MAX_BYTES) throw new TooLarge()
    }
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
