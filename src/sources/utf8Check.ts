/**
 * Where a byte stream is not UTF-8: the stream offset of each invalid sequence, counted as
 * TextDecoder counts them (one U+FFFD per maximal invalid subpart), so a dump reader can count
 * them against the page they occur in without decoding the text. Chunks that are valid throughout
 * are checked at native speed; only a chunk holding an invalid sequence is walked byte by byte.
 */
import { isUtf8 } from 'node:buffer';

const EMPTY = Buffer.alloc(0);

/**
 * Finds the invalid UTF-8 sequences of a byte stream fed chunk by chunk, a sequence cut by a chunk's
 * end included.
 *
 * @example
 * const checker = new Utf8Checker();
 * [...checker.check(Buffer.from([0x61, 0xff])), ...checker.end()] // [1]
 */
export class Utf8Checker {
  /** The bytes of a character cut off by the last chunk's end, and the stream offset they start at. */
  private carry: Buffer = EMPTY;
  private offset = 0;

  /** The stream offsets of the invalid sequences that end in this chunk (or start in it and are complete). */
  check(chunk: Buffer): number[] {
    const chunkStart = this.offset;
    this.offset += chunk.length;
    const invalid: number[] = [];
    let from = 0;
    if (this.carry.length > 0) {
      // The character cut off last time ends within this chunk's first three bytes: walk only the junction.
      const junction = Buffer.concat([this.carry, chunk.subarray(0, 3)]);
      const junctionStart = chunkStart - this.carry.length;
      let at = 0;
      while (at < this.carry.length) {
        const length = sequenceAt(junction, at);
        if (length < 0 && at - length === junction.length && chunk.length < 3) {
          // Still cut off: the chunk was too short to finish it.
          this.carry = Buffer.from(junction.subarray(at));
          return invalid;
        }
        if (length < 0) invalid.push(junctionStart + at);
        at += Math.abs(length);
      }
      from = at - this.carry.length;
      this.carry = EMPTY;
    }
    const complete = completeLength(chunk, from);
    if (complete < chunk.length) this.carry = Buffer.from(chunk.subarray(complete));
    if (!isUtf8(chunk.subarray(from, complete))) {
      for (const at of invalidSequences(chunk, from, complete)) invalid.push(chunkStart + at);
    }
    return invalid;
  }

  /** What is left at the end of the input: an unfinished character is an invalid sequence. */
  end(): number[] {
    const left = this.carry;
    const leftStart = this.offset - left.length;
    this.carry = EMPTY;
    return invalidSequences(left, 0, left.length).map((at) => leftStart + at);
  }
}

/** The index from which bytes hold a character cut off by the end of `bytes` (the length when none is). */
function completeLength(bytes: Buffer, from: number): number {
  for (let back = 1; back <= Math.min(3, bytes.length - from); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = sequenceLength(byte);
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The length a lead byte announces, 1 for ASCII and for bytes that cannot lead a sequence. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** The allowed range of a sequence's second byte (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** The index of each maximal invalid subpart in bytes[from, to) (the WHATWG decoder's replacement rule). */
function invalidSequences(bytes: Buffer, from: number, to: number): number[] {
  const invalid: number[] = [];
  const window = bytes.subarray(0, to);
  for (let at = from; at < to; ) {
    const length = sequenceAt(window, at);
    if (length < 0) invalid.push(at);
    at += Math.abs(length);
  }
  return invalid;
}

/** The length of the valid sequence at `at`, or minus the length of the invalid (or unfinished) subpart there. */
function sequenceAt(bytes: Buffer, at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  const length = sequenceLength(lead);
  if (length === 1) return -1;
  const [low, high] = secondByteRange(lead);
  let matched = 1;
  while (matched < length && at + matched < bytes.length) {
    const byte = bytes[at + matched]!;
    const [min, max] = matched === 1 ? [low, high] : [0x80, 0xbf];
    if (byte < min || byte > max) break;
    matched++;
  }
  return matched === length ? length : -matched;
}
