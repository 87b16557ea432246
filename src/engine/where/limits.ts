// How much a where clause may ask of the engine: its size, its nesting, and the work one
// evaluation may do. Each limit keeps one request or one row from holding the event loop.

/** Characters in the clause; a GET URL cannot carry much more through Node anyway. */
export const MAX_WHERE_LENGTH = 65_536
/** Parameters ($1..$n), and characters in each one. */
export const MAX_PARAMS = 1_000
export const MAX_PARAM_LENGTH = 65_536
/**
 * Expression nesting: the analyser, compiler and evaluator recurse once per level, so this
 * keeps them far from the stack's end. `1+1+...` nests once per term.
 */
export const MAX_WHERE_DEPTH = 100
/** Expression nodes in the whole clause (a long IN list counts one per item). */
export const MAX_WHERE_NODES = 10_000
/**
 * Items in one list: an IN list, an ARRAY[...], a call's arguments, terms joined by AND or OR.
 * As many as params; analysing and compiling 10,000 held the loop some 50 ms, three such
 * requests at once over 100 ms (bench:engine --subset-in). Many values go in one array param
 * (`id = ANY($1)`), which is read as a value rather than compiled node by node.
 */
export const MAX_LIST_ITEMS = 1_000
/**
 * Work units one evaluation of the clause may spend (against one row, or compiling it once):
 * a unit is about a nanosecond — a character built, a sixteenth of a LIKE backtracking step, a
 * digit of numeric arithmetic weighted by its cost — so an evaluation stops within a few tens
 * of milliseconds. Cheap operators (comparisons, small numbers) charge nothing.
 */
export const MAX_EVAL_COST = 20_000_000
/** Postgres's MAXDIM: array literals with more dimensions are refused, as array_in does. */
export const MAX_ARRAY_DIMS = 6
/** Nesting of jsonb values; deeper ones are refused rather than walked recursively. */
export const MAX_JSON_DEPTH = 1_000
/**
 * Subqueries in one clause, counting nested ones: each is a dependency the shape follows (its
 * rows read at the snapshot, its table's changes applied), so a shape may not ask for many.
 */
export const MAX_SUBQUERIES = 10
