// Postmasters this process started and has not stopped yet. A process that ends without
// stopping them (an uncaught error, a process.exit elsewhere, a signal it does not handle)
// tells them to shut down on its way out instead of leaving them to hold their data directory
// and port. A process that handles its signals itself owns its shutdown: the guard steps in
// only for a signal nobody else listens to, and then lets that signal end the process as it
// would have without the guard. Listeners are installed only while a postmaster runs.
const running = new Set<number>()
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

function signalPostmasters() {
  for (const pid of running) {
    try {
      // SIGINT is Postgres's fast shutdown: it goes on after this process is gone.
      process.kill(pid, 'SIGINT')
    } catch {
      // Already gone.
    }
  }
  running.clear()
  uninstall()
}

const onSignal = (signal: NodeJS.Signals) => {
  if (process.listenerCount(signal) > 1) return
  signalPostmasters()
  process.kill(process.pid, signal)
}

function install() {
  if (running.size > 0) return
  // 'exit' listeners run synchronously and must not touch the exit code: this one only signals.
  process.on('exit', signalPostmasters)
  for (const signal of SIGNALS) process.on(signal, onSignal)
}

function uninstall() {
  process.removeListener('exit', signalPostmasters)
  for (const signal of SIGNALS) process.removeListener(signal, onSignal)
}

/** Guards a running postmaster until `release()`, called once it has been stopped. */
export function stopOnExit(pid: number | undefined): { release(): void } {
  if (pid === undefined) return { release() {} }
  install()
  running.add(pid)
  return {
    release() {
      if (running.delete(pid) && running.size === 0) uninstall()
    },
  }
}
