// timezone(zone, timestamp[tz]), which AT TIME ZONE also calls: the zone a text name or an
// interval, either way round between timestamp and timestamptz (values/timezone.ts).
import type { Signature } from '../tree.ts'
import type { Interval } from '../values/interval.ts'
import {
  instantInInterval,
  instantInZone,
  localToInterval,
  localToZone,
} from '../values/timezone.ts'
import { binary, fn } from './sig.ts'

export function zoneFunctions(): Signature[] {
  return [
    fn(
      'timezone',
      ['text', 'timestamp'],
      'timestamptz',
      binary((z: string, ts: bigint) => localToZone(z, ts)),
    ),
    fn(
      'timezone',
      ['text', 'timestamptz'],
      'timestamp',
      binary((z: string, ts: bigint) => instantInZone(z, ts)),
    ),
    fn(
      'timezone',
      ['interval', 'timestamp'],
      'timestamptz',
      binary((z: Interval, ts: bigint) => localToInterval(z, ts)),
    ),
    fn(
      'timezone',
      ['interval', 'timestamptz'],
      'timestamp',
      binary((z: Interval, ts: bigint) => instantInInterval(z, ts)),
    ),
  ]
}
