/**
 * Streaming UTF-8 decoding that says where the input was not UTF-8: each invalid sequence becomes
 * one U+FFFD, as TextDecoder does, but is reported in place, so a dump reader can count it against
 * the page it occurs in. A literal U+FFFD in the input is valid text and is not counted.
 */
import { isUtf8 } from 'node:buffer';

/** A piece of decoded text, or `null` for one invalid sequence (to be read as U+FFFD). */
export type DecodedPiece = string | null;

export const REPLACEMENT_CHARACTER = '\ufffd';

export class Utf8StreamDecoder {
  /** The bytes of a character split across chunks, kept for the next chunk. */
  private carry: Buffer = Buffer.alloc(0);

  decode(chunk: Buffer): DecodedPiece[] {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = completeLength(bytes);
    this.carry = Buffer.from(bytes.subarray(complete));
    const whole = bytes.subarray(0, complete);
    // The common case, checked at native speed: valid text throughout.
    if (isUtf8(whole)) return whole.length > 0 ? [whole.toString('utf8')] : [];
    return splitInvalid(whole);
  }

  /** What is left at the end of the input: an unfinished character is an invalid sequence. */
  end(): DecodedPiece[] {
    const left = this.carry;
    this.carry = Buffer.alloc(0);
    return splitInvalid(left);
  }
}

/** How many leading bytes hold no character cut off by the chunk's end (invalid bytes count as complete). */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
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

/** Valid runs as text, and one `null` per maximal invalid subpart (the WHATWG decoder's replacement rule). */
function splitInvalid(bytes: Buffer): DecodedPiece[] {
  const pieces: DecodedPiece[] = [];
  let runStart = 0;
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceAt(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    if (at > runStart) pieces.push(bytes.toString('utf8', runStart, at));
    pieces.push(null);
    at -= length;
    runStart = at;
  }
  if (at > runStart) pieces.push(bytes.toString('utf8', runStart, at));
  return pieces;
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
