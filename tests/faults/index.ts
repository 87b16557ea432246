// Every fault of issue 19's matrix, in order: a scenario, or a note that it is not built yet.
import { f1 } from './f1-engine-kill.ts'
import { f3 } from './f3-source-crash.ts'
import { f4 } from './f4-partition.ts'
import { f5 } from './f5-slot-lost.ts'
import { f6 } from './f6-schema-changes.ts'
import { f10 } from './f10-tab-closed.ts'
import type { FaultScenario, PlannedFault } from './scenario.ts'

const planned = (id: string, title: string): PlannedFault => ({
  id,
  title,
  notBuilt: true,
})

export const FAULTS: (FaultScenario | PlannedFault)[] = [
  f1,
  planned('F2', 'whole server killed with a dashboard open'),
  f3,
  f4,
  f5,
  f6,
  planned('F7', 'a 5-million-row transaction'),
  planned('F8', 'a transaction open 10 minutes during a snapshot'),
  planned('F9', 'browser offline/online 100 times'),
  f10,
  planned('F11', 'control-plane Postgres restarted'),
  planned('F12', "the engine's disk fills"),
  planned('SOAK', '30-minute soak, RSS and fds flat'),
]
