// A bounds-checked big-endian cursor over one replication message; a short or malformed
// message throws instead of reading garbage from past its end.
export class ByteReader {
  private offset = 0

  constructor(private readonly buffer: Buffer) {}

  get remaining(): number {
    return this.buffer.length - this.offset
  }

  uint8(): number {
    this.need(1)
    const value = this.buffer.readUInt8(this.offset)
    this.offset += 1
    return value
  }

  /** A one-byte message or tuple tag, as its ASCII character. */
  char(): string {
    return String.fromCharCode(this.uint8())
  }

  int16(): number {
    this.need(2)
    const value = this.buffer.readInt16BE(this.offset)
    this.offset += 2
    return value
  }

  int32(): number {
    this.need(4)
    const value = this.buffer.readInt32BE(this.offset)
    this.offset += 4
    return value
  }

  uint32(): number {
    this.need(4)
    const value = this.buffer.readUInt32BE(this.offset)
    this.offset += 4
    return value
  }

  /** Int64 fields are LSNs (unsigned) or timestamps (signed); callers pick. */
  uint64(): bigint {
    this.need(8)
    const value = this.buffer.readBigUInt64BE(this.offset)
    this.offset += 8
    return value
  }

  int64(): bigint {
    this.need(8)
    const value = this.buffer.readBigInt64BE(this.offset)
    this.offset += 8
    return value
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(): string {
    const end = this.buffer.indexOf(0, this.offset)
    if (end < 0) throw new Error('unterminated string in replication message')
    const value = this.buffer.toString('utf8', this.offset, end)
    this.offset = end + 1
    return value
  }

  /** Copies, because the protocol parser reuses the memory behind the message. */
  bytes(length: number): Buffer {
    this.need(length)
    const value = Buffer.from(
      this.buffer.subarray(this.offset, this.offset + length),
    )
    this.offset += length
    return value
  }

  utf8(length: number): string {
    this.need(length)
    const value = this.buffer.toString(
      'utf8',
      this.offset,
      this.offset + length,
    )
    this.offset += length
    return value
  }

  rest(): Buffer {
    return this.bytes(this.remaining)
  }

  private need(length: number): void {
    if (length < 0 || this.offset + length > this.buffer.length)
      throw new Error(
        `truncated replication message: need ${length} bytes at ${this.offset} of ${this.buffer.length}`,
      )
  }
}
