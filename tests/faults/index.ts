// Every fault of the fault matrix (docs/development.md, Faults), in order (a fault without a
// scenario would be a PlannedFault).
import { f1 } from './f1-engine-kill.ts'
import { f2 } from './f2-server-kill.ts'
import { f3 } from './f3-source-crash.ts'
import { f4 } from './f4-partition.ts'
import { f5 } from './f5-slot-lost.ts'
import { f6 } from './f6-schema-changes.ts'
import { f7 } from './f7-big-transaction.ts'
import { f8 } from './f8-long-transaction.ts'
import { f9 } from './f9-offline-flaps.ts'
import { f10 } from './f10-tab-closed.ts'
import { f11 } from './f11-control-plane-restart.ts'
import { f12 } from './f12-disk-full.ts'
import { soak } from './soak.ts'
import type { FaultScenario, PlannedFault } from './scenario.ts'

export const FAULTS: (FaultScenario | PlannedFault)[] = [
  f1,
  f2,
  f3,
  f4,
  f5,
  f6,
  f7,
  f8,
  f9,
  f10,
  f11,
  f12,
  soak,
]
