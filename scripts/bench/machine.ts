// What the machine itself gave a run. The engine, Postgres and the load process share this
// machine's cores, and the same code has measured up to 1.6x apart on different days (a shared
// virtual machine): these figures say how busy the whole machine was during a window, and how
// fast one of its cores and its loopback were that day, so runs can be compared.
import { readFileSync } from 'node:fs'
import { createServer, connect, type AddressInfo } from 'node:net'

/** Jiffies all CPUs spent busy and in all, from the first line of /proc/stat. */
type CpuTimes = { busy: number; total: number }

/** Null where /proc/stat cannot be read (not Linux). */
export function machineCpu(): CpuTimes | null {
  try {
    const line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0] ?? ''
    // cpu user nice system idle iowait irq softirq steal ...
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number)
    if (fields.length < 8 || fields.some((n) => !Number.isFinite(n)))
      return null
    const total = fields.reduce((a, b) => a + b, 0)
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
    return { busy: total - idle, total }
  } catch {
    return null
  }
}

/** Share of all CPUs busy between two readings, or null. */
export function busyShare(
  from: CpuTimes | null,
  to: CpuTimes | null,
): number | null {
  if (!from || !to || to.total <= from.total) return null
  return (to.busy - from.busy) / (to.total - from.total)
}

/**
 * Milliseconds one core takes for a fixed piece of work of the engine's kind (JSON out and
 * in, strings and buffers), the best of five: a lower figure is a faster core that day.
 */
export function calibrate(): number {
  const row = {
    key: '"public"."items"/"123456"',
    value: { id: '123456', team_id: '42', body: 'k0x lorem ipsum dolor' },
    headers: { operation: 'insert', lsn: '123456789', op_position: 12 },
  }
  let best = Infinity
  let sink = 0
  for (let round = 0; round < 5; round++) {
    const started = performance.now()
    for (let i = 0; i < 20_000; i++) {
      row.value.id = String(i)
      const text = JSON.stringify(row)
      const bytes = Buffer.from(text)
      sink += (JSON.parse(bytes.toString('utf8')) as typeof row).key.length
    }
    best = Math.min(best, performance.now() - started)
  }
  if (sink === 0) throw new Error('calibration did no work')
  return best
}

/**
 * Microseconds for a small message to go to a loopback TCP peer and back, the median of
 * 2,000: the kernel's part of an answer (the engine's socket writes are a sixth of its time at
 * 10,000 shapes), which a virtual machine's host can slow while the core's figure holds.
 */
export async function loopbackRoundTripUs(): Promise<number> {
  const server = createServer((socket) => {
    socket.setNoDelay(true)
    socket.on('data', (data) => socket.write(data))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const socket = connect({ host: '127.0.0.1', port, noDelay: true })
  // A connection that fails or closes fails the measurement rather than leave it waiting.
  const lost = new Promise<never>((_, reject) => {
    socket.once('error', reject)
    socket.once('close', () => reject(new Error('the loopback peer closed')))
  })
  lost.catch(() => {})
  try {
    await Promise.race([
      new Promise((resolve) => socket.once('connect', resolve)),
      lost,
    ])
    const times: number[] = []
    const message = Buffer.alloc(300, 120)
    for (let i = 0; i < 2_000; i++) {
      const started = performance.now()
      const echoed = new Promise<void>((resolve) => {
        let got = 0
        const onData = (data: Buffer) => {
          got += data.length
          if (got < message.length) return
          socket.off('data', onData)
          resolve()
        }
        socket.on('data', onData)
        socket.write(message)
      })
      await Promise.race([echoed, lost])
      times.push((performance.now() - started) * 1000)
    }
    times.sort((a, b) => a - b)
    return times[times.length >> 1] ?? NaN
  } finally {
    socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  }
}
