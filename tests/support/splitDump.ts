import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes the part of a MediaWiki XML export whose revisions fall before (or from) an instant, pages
 * without revisions left out: a wiki can import the first part, then the second, like a wiki that
 * received those edits later. Exports escape text, so `</revision>` only ever closes a revision.
 */
export function writeDumpPart(source: string, target: string, part: { before?: string; from?: string }): void {
  const xml = readFileSync(source, 'utf8');
  const keep = (timestamp: string) => (part.before === undefined || timestamp < part.before) && (part.from === undefined || timestamp >= part.from);
  const pages = xml.replace(/<page>[\s\S]*?<\/page>\s*/g, (page) => {
    const revisions = page.replace(/\s*<revision>[\s\S]*?<\/revision>/g, (revision) => {
      const timestamp = /<timestamp>([^<]+)<\/timestamp>/.exec(revision)?.[1] ?? '';
      return keep(timestamp) ? revision : '';
    });
    return revisions.includes('<revision>') ? revisions : '';
  });
  writeFileSync(target, pages);
}
