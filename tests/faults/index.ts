// Every fault of issue 19's matrix, in order: a scenario, or a note that it is not built yet.
import { f1 } from './f1-engine-kill.ts'
import { f2 } from './f2-server-kill.ts'
import { f3 } from './f3-source-crash.ts'
import { f4 } from './f4-partition.ts'
import { f5 } from './f5-slot-lost.ts'
import { f6 } from './f6-schema-changes.ts'
import { f7 } from './f7-big-transaction.ts'
import { f9 } from './f9-offline-flaps.ts'
import { f10 } from './f10-tab-closed.ts'
import { f11 } from './f11-control-plane-restart.ts'
import type { FaultScenario, PlannedFault } from './scenario.ts'

const planned = (id: string, title: string): PlannedFault => ({
  id,
  title,
  notBuilt: true,
})

export const FAULTS: (FaultScenario | PlannedFault)[] = [
  f1,
  f2,
  f3,
  f4,
  f5,
  f6,
  f7,
  planned('F8', 'a transaction open 10 minutes during a snapshot'),
  f9,
  f10,
  f11,
  planned('F12', "the engine's disk fills"),
  planned('SOAK', '30-minute soak, RSS and fds flat'),
]
