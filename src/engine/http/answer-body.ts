// An answer's body, the JSON array of its messages, as the bytes sent. Messages read from a
// log file are bytes already (record-scan.ts) and are joined as they are, never decoded; a
// live answer's few messages from memory are text, joined and encoded once.
import type { Message } from '../storage/shape-log.ts'

const OPEN = 0x5b // [
const COMMA = 0x2c
const CLOSE = 0x5d // ]

export function answerBody(messages: Message[]): Buffer {
  if (messages.every((m) => typeof m === 'string'))
    return Buffer.from(`[${messages.join(',')}]`)
  // Copied straight into a buffer of the body's size: a snapshot chunk has tens of thousands
  // of messages, and a list of them and their commas to join was as many entries again.
  let size = messages.length + 1
  for (const m of messages)
    size += typeof m === 'string' ? Buffer.byteLength(m) : m.length
  const body = Buffer.allocUnsafe(size)
  let at = 0
  body[at++] = OPEN
  for (let i = 0; i < messages.length; i++) {
    if (i > 0) body[at++] = COMMA
    const m = messages[i] as Message
    at += typeof m === 'string' ? body.write(m, at) : m.copy(body, at)
  }
  body[at] = CLOSE
  return body
}

/** A message as text, for what reads it rather than sending it (the Inspector, SSE frames). */
export const messageText = (message: Message): string =>
  typeof message === 'string' ? message : message.toString('utf8')
