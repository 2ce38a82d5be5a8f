/** Reading a dump into its events, for the reader's tests: whole, up to a failure, or from chunks of any size. */
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump, type DumpEvent, type ReadDumpOptions } from '../../src/sources/dumpReader.js';

export async function collect(source: string | AsyncIterable<Buffer | string>, options?: ReadDumpOptions): Promise<DumpEvent[]> {
  const events: DumpEvent[] = [];
  for await (const event of readDump(typeof source === 'string' ? openDumpInput(source) : source, options)) events.push(event);
  return events;
}

/** Reads until the reader fails; returns what it yielded before and the error. */
export async function collectUntilError(source: string | AsyncIterable<Buffer | string>): Promise<{ events: DumpEvent[]; error: unknown }> {
  const events: DumpEvent[] = [];
  try {
    for await (const event of readDump(typeof source === 'string' ? openDumpInput(source) : source)) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: null };
}

export function revisions(events: DumpEvent[]) {
  return events.flatMap((event) => (event.kind === 'revision' ? [event] : []));
}

export async function* inChunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}
