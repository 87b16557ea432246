// An answer's body joined from log bytes and text (http/answer-body.ts), and a log line read as
// bytes (parseRecordBytes) as it is read as text (parseRecord): the same JSON, whatever its
// characters, and a torn line refused by both.
import { expect, it } from 'vitest'
import { answerBody, messageText } from '../../src/engine/http/answer-body.ts'
import {
  parseRecord,
  parseRecordBytes,
} from '../../src/engine/storage/log-recovery.ts'

const messages = [
  '{"key":"a","value":{"t":"plain"}}',
  '{"key":"b","value":{"t":"ünïcødé ✓ 😀"}}',
  '{"headers":{"control":"up-to-date"}}',
]

it('joins bytes and text into the JSON array the text alone makes', () => {
  const mixed = [
    Buffer.from(messages[0]!),
    messages[1]!,
    Buffer.from(messages[2]!),
  ]
  const expected = `[${messages.join(',')}]`
  expect(answerBody(mixed).toString('utf8')).toBe(expected)
  expect(answerBody(messages).toString('utf8')).toBe(expected)
  expect(answerBody([]).toString('utf8')).toBe('[]')
  expect(JSON.parse(answerBody(mixed).toString('utf8'))).toHaveLength(3)
  expect(mixed.map(messageText)).toEqual(messages)
})

it('reads a log line as bytes as it reads it as text', () => {
  const lines = [
    `12/3\t1\t${messages[1]}`,
    `0_7\t0\t${messages[0]}`,
    '0_inf\t1\t',
    'torn line without tabs',
    '5_0\tno second tab',
    'not-an-offset\t1\t{}',
  ]
  for (const line of lines) {
    // Inside a larger block, as record-scan.ts finds lines.
    const data = Buffer.from(`junk\n${line}\nmore`)
    const start = 5
    const end = start + Buffer.byteLength(line)
    const text = parseRecord(line)
    const bytes = parseRecordBytes(data, start, end)
    if (text === null) expect(bytes).toBeNull()
    else
      expect(bytes && { ...bytes, json: bytes.json.toString('utf8') }).toEqual(
        text,
      )
  }
})
