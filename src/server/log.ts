// A small leveled logger. Callers pass paths and ids, never URLs with credentials or tokens.
export type Level = 'debug' | 'info' | 'warn' | 'error'
export type Logger = Record<Level, (message: string) => void>

const order: Level[] = ['debug', 'info', 'warn', 'error']

export function createLogger(min: Level): Logger {
  const at = (level: Level) => (message: string) => {
    if (order.indexOf(level) < order.indexOf(min)) return
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${message}`
    if (level === 'error' || level === 'warn') console.error(line)
    else console.log(line)
  }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}
