// Replication timestamps count microseconds from the Postgres epoch (2000-01-01 UTC).
const PG_EPOCH_MS = Date.UTC(2000, 0, 1)

export function fromPgTimestamp(micros: bigint): Date {
  return new Date(PG_EPOCH_MS + Number(micros / 1000n))
}

export function toPgTimestamp(date: Date): bigint {
  return BigInt(date.getTime() - PG_EPOCH_MS) * 1000n
}
