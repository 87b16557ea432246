// The shape of the protocol's 400s, shared by the parsers that fill them and the answers that
// send them: a leaf, so neither side imports the other.

/** Per parameter, as Electric reports them. */
export type Errors = Record<string, string[]>

/** The same, where `subset` holds its fields' errors (subset-request.ts SubsetErrors). */
export type ProtocolErrors = Record<
  string,
  string[] | Partial<Record<string, string[]>>
>

/** A parameter's error when it holds U+0000, which Postgres text cannot (http/nul.ts). */
export const NUL_REFUSED = 'must not contain a NUL character'
