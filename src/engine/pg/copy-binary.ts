// Reads the rows of `COPY … TO STDOUT (FORMAT binary)` of a one-column query as they stream in:
// each row's field is handed on as a range of the bytes received, never a string. Binary, not
// text: a field's bytes arrive as they are, length-prefixed, where the text format escapes every
// backslash (and JSON has many). The stream's chunks do not follow rows: a row may start in one
// chunk and end in a later one.
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
/** The signature, the flags field and the header extension's length. */
const HEADER_BYTES = SIGNATURE.length + 8

/** Gets a row's one field: bytes start..end of `data`, valid only during the call. */
export type OnField = (data: Buffer, start: number, end: number) => void

export class CopyBinaryRows {
  /** Bytes received and not yet parsed: the start of an incomplete header or row. */
  private waiting: Buffer[] = []
  private waitingBytes = 0
  /** Bytes the incomplete part needs before it can be parsed further. */
  private need = 0
  private headerRead = false
  /** The trailer arrived: every row was read. */
  private ended = false
  rows = 0

  push(chunk: Buffer, onField: OnField): void {
    if (this.ended) throw new Error('COPY sent data after its trailer')
    let data = chunk
    if (this.waitingBytes > 0) {
      this.waiting.push(chunk)
      this.waitingBytes += chunk.length
      // A long field arrives in many chunks: they are joined once, when all of it is here.
      if (this.waitingBytes < this.need) return
      data = Buffer.concat(this.waiting, this.waitingBytes)
    }
    const at = this.parse(data, onField)
    const rest = data.length - at
    this.waiting = rest > 0 ? [data.subarray(at)] : []
    this.waitingBytes = rest
  }

  /** Parses what `data` holds whole; answers where the unparsed rest starts. */
  private parse(data: Buffer, onField: OnField): number {
    let at = 0
    if (!this.headerRead) {
      if (data.length < HEADER_BYTES) return this.wait(HEADER_BYTES)
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
        throw new Error('COPY did not send the binary format')
      const extension = data.readUInt32BE(SIGNATURE.length + 4)
      if (data.length < HEADER_BYTES + extension)
        return this.wait(HEADER_BYTES + extension)
      at = HEADER_BYTES + extension
      this.headerRead = true
    }
    for (;;) {
      if (data.length - at < 2) return this.wait(2, at)
      const fields = data.readInt16BE(at)
      if (fields === -1) {
        this.ended = true
        if (data.length > at + 2)
          throw new Error('COPY sent data after its trailer')
        this.need = 0
        return data.length
      }
      if (fields !== 1) throw new Error(`COPY sent ${fields} fields, not 1`)
      if (data.length - at < 6) return this.wait(6, at)
      const length = data.readInt32BE(at + 2)
      if (length < 0) throw new Error('COPY sent a null field')
      if (data.length - at < 6 + length) return this.wait(6 + length, at)
      onField(data, at + 6, at + 6 + length)
      this.rows++
      at += 6 + length
    }
  }

  private wait(bytes: number, at = 0): number {
    this.need = bytes
    return at
  }

  /** Whether the stream ended where a COPY's end belongs: after its trailer. */
  get complete(): boolean {
    return this.ended && this.waitingBytes === 0
  }
}
