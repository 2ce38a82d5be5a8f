/**
 * JSON lines: one JSON object per line, the columns in order, null where a record has no value
 * (docs/ARCHITECTURE.md §8). The manifest counts its lines; the changes between two releases are read
 * from these files, as any reader of a downloaded release would read them.
 */
import { UserError } from '../../errors.js';
import type { ReleaseFormat } from './format.js';

export const jsonLinesFormat = {
  name: 'jsonl',
  extension: 'jsonl',
  render: (table) => table.jsonLines(),
  rows: (content) => {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    let lines = 0;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
    return lines;
  },
} satisfies ReleaseFormat;

/** The records of a JSON-lines file; `what` names it in the one-line error for a line that is not JSON. */
export function readJsonLines(text: string, what: string): Array<Record<string, unknown>> {
  const records: Array<Record<string, unknown>> = [];
  let number = 0;
  for (const line of text.split('\n')) {
    number++;
    if (line === '') continue;
    try {
      records.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      throw new UserError('E_RELEASE_INVALID', `${what} line ${number}: not JSON`);
    }
  }
  return records;
}
