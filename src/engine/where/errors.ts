// The two ways a where clause fails: refused when compiled (a 400 for the client), or failing
// while evaluated against one row (as Postgres would raise for that row).

/**
 * A clause we refuse. Syntax errors read like Electric's, `At location 17: syntax error at or
 * near "x"`, counting from the start of `SELECT 1 WHERE <where>`; semantic errors are plain
 * messages, with `location` (0-based, within the clause) when one node is to blame.
 */
export class WhereError extends Error {
  readonly location: number | undefined

  constructor(message: string, location?: number) {
    super(message)
    this.name = 'WhereError'
    this.location = location
  }
}

/** Raised inside the evaluator (division by zero, overflow, bad input for a cast). */
export class EvalError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EvalError'
  }
}
