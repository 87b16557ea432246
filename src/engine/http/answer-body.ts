// An answer's body, the JSON array of its messages, as the bytes sent. Messages read from a
// log file are bytes already (record-scan.ts) and are joined as they are, never decoded; a
// live answer's few messages from memory are text, joined and encoded once.
import type { Message } from '../storage/shape-log.ts'

const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')

export function answerBody(messages: Message[]): Buffer {
  if (messages.every((m) => typeof m === 'string'))
    return Buffer.from(`[${messages.join(',')}]`)
  const parts: Buffer[] = [OPEN]
  for (const [i, m] of messages.entries()) {
    if (i > 0) parts.push(COMMA)
    parts.push(typeof m === 'string' ? Buffer.from(m) : m)
  }
  parts.push(CLOSE)
  return Buffer.concat(parts)
}

/** A message as text, for what reads it rather than sending it (the Inspector, SSE frames). */
export const messageText = (message: Message): string =>
  typeof message === 'string' ? message : message.toString('utf8')
