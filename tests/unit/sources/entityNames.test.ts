import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import type { EntityName } from '../../../src/model.js';
import { LabelsFile } from '../../../src/sources/entityNames.js';
import { tempDir } from '../../../testkit/cli.js';
import { labelsDump } from '../../../testkit/entityWeeks.js';
import { withCode } from '../../support/errorCodes.js';

async function namesFrom(path: string, ids: string[]): Promise<Map<string, EntityName | null>> {
  const found = new Map<string, EntityName | null>();
  await new LabelsFile(path).names(ids, (batch) => batch.forEach((name, id) => found.set(id, name)));
  return found;
}

describe('--labels FILE: a Wikidata JSON dump', () => {

  it('reads a dump written as Wikidata writes them today (the id first), only the ids asked', async () => {
    const path = join(tempDir(), 'labels.json');
    writeFileSync(path, labelsDump());
    const found = await namesFrom(path, ['Q183', 'P1082']);
    expect(found).toEqual(new Map([['P1082', { label: 'population', aliases: [] }], ['Q183', { label: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] }]]));
  });

  it('refuses a dump cut short when it was read to its end, though no line it holds is broken', async () => {
    const whole = labelsDump();
    const path = join(tempDir(), 'cut.json');
    writeFileSync(path, whole.slice(0, whole.lastIndexOf('\n', whole.length - 4)));
    await expect(namesFrom(path, ['Q183', 'Q999999'])).rejects.toThrow(withCode('E_LABELS_FILE_INVALID', /ends at line \d+ without the closing "\]" \(cut short\?\)/));
    // Every id found before the end: the rest is not read, and nothing says it is whole or not.
    expect(await namesFrom(path, ['Q183'])).toEqual(new Map([['Q183', { label: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] }]]));
  });

  /** A dump of items Q1 to Q{count}, each labelled "item N". */
  function itemsDump(count: number): string {
    return labelsDump(Object.fromEntries(Array.from({ length: count }, (_, i) => [`Q${i + 1}`, { label: `item ${i + 1}` }])));
  }

  it('hands on the names as it finds them, a batch at a time, so a broken line later loses none found before it', async () => {
    const lines = itemsDump(1200).split('\n');
    const path = join(tempDir(), 'broken-late.json');
    writeFileSync(path, [...lines.slice(0, 1101), '{"id":"Q9999", "labels": 5', ...lines.slice(1101)].join('\n'));
    const batches: number[] = [];
    const found = new Map<string, EntityName | null>();
    const ids = Array.from({ length: 1200 }, (_, i) => `Q${i + 1}`);
    const reading = new LabelsFile(path).names(ids, (batch) => {
      batches.push(batch.size);
      batch.forEach((name, id) => found.set(id, name));
    });
    await expect(reading).rejects.toThrow(new InputError('E_LABELS_FILE_INVALID', `labels file ${path} is not a Wikidata JSON dump: line 1102 is not an entity`));
    // Lines 2 to 1101 hold Q1 to Q1100: every one of them was handed on, in batches of at most 500.
    expect([...found.keys()]).toEqual(ids.slice(0, 1100));
    expect(found.get('Q1100')).toEqual({ label: 'item 1100', aliases: [] });
    expect(batches.length).toBeGreaterThan(1);
    expect(Math.max(...batches)).toBeLessThanOrEqual(500);
  });

  /** How many of this process's file descriptors are open on `path` (Linux's /proc). */
  function openDescriptors(path: string): number {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false;
      }
    }).length;
  }

  async function closedSoon(path: string): Promise<number> {
    for (let tries = 0; tries < 100 && openDescriptors(path) > 0; tries++) await sleep(20);
    return openDescriptors(path);
  }

  /** The bzip2 processes this process started that are running, as pids. */
  function bzip2Children(): string[] {
    const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString().trim().split('\n');
    return children.flatMap((line) => (/^\s*(\d+)\s+bzip2$/.exec(line)?.slice(1) ?? []));
  }

  /** The bzip2 processes started since `before` that are still running once those ended are gone (at most 2 s). */
  async function bzip2ChildrenSoon(before: string[]): Promise<string[]> {
    const started = () => bzip2Children().filter((pid) => !before.includes(pid));
    for (let tries = 0; tries < 100 && started().length > 0; tries++) await sleep(20);
    return started();
  }

  it('closes the file, and ends the decompressor reading it, when it stops early (every id found) and when a line is broken', async () => {
    // Several MiB, more than one read of the file: the first ids are found long before its end.
    const dump = itemsDump(40_000);
    const early = join(tempDir(), 'early.json');
    writeFileSync(early, dump);
    expect(await namesFrom(early, ['Q1', 'Q2'])).toEqual(new Map([['Q1', { label: 'item 1', aliases: [] }], ['Q2', { label: 'item 2', aliases: [] }]]));
    expect(await closedSoon(early)).toBe(0);
    const broken = join(tempDir(), 'broken-early.json');
    writeFileSync(broken, dump.replace('{"type":"item","id":"Q3"', '{"type":"item","id":"Q3" junk'));
    await expect(namesFrom(broken, ['Q1', 'Q3', 'Q39999'])).rejects.toThrow(withCode('E_LABELS_FILE_INVALID', /line 4 is not an entity/));
    expect(await closedSoon(broken)).toBe(0);
    execFileSync('bzip2', ['-k', early]);
    const before = bzip2Children();
    expect(await namesFrom(`${early}.bz2`, ['Q1'])).toEqual(new Map([['Q1', { label: 'item 1', aliases: [] }]]));
    expect(await bzip2ChildrenSoon(before)).toEqual([]);
  });
});
