// The work budget of one evaluation (see MAX_EVAL_COST): operators whose cost grows with their
// inputs charge it before doing the work, so a costly clause fails fast instead of stalling
// the event loop. Evaluation is synchronous, so one module-level counter is enough.
import { EvalError } from './errors.ts'
import { MAX_EVAL_COST } from './limits.ts'

let remaining = MAX_EVAL_COST
// Every unit charged since the process started: lets a caller running many evaluations notice
// costly ones without reading the clock after each (see ../time-slice.ts).
let spent = 0

const BUDGET_MESSAGE =
  'where clause is too costly to evaluate (its work budget is exceeded)'

/** Starts a new evaluation with a full budget. */
export function resetBudget(): void {
  remaining = MAX_EVAL_COST
}

/** Spends `units` of the current evaluation's budget; throws once it is exhausted. */
export function charge(units: number): void {
  spent += units
  remaining -= units
  if (remaining < 0) throw new EvalError(BUDGET_MESSAGE)
}

/** Units charged by all evaluations so far (only ever grows). */
export function unitsSpent(): number {
  return spent
}
