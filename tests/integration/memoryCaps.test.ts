/**
 * Memory bounded by design, not by the input, through the real command: infobox values of
 * megabytes in a week's dump are left out of the parse with a line naming each, and a prediction
 * of tens of megabytes is refused by `evaluate` with one line naming it. (The LLM's and the wiki's
 * reply caps are tested with their clients: llmLayer.test.ts, hostileWiki.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

function revision(id: number, timestamp: string, text: string): string {
  return `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision>`;
}

describe('size caps', () => {
  it('leaves infobox values of megabytes out of the parse, naming each, and still finds the week\'s change', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const junk = 'spam [[link]] {{nowrap|x}} '.repeat(80_000);
    const town = (population: number, extra: string) => `{{Infobox settlement\n| name = Bigtown\n${extra}| population_total = ${population}\n}}\n'''Bigtown''' is a town.`;
    const dump = join(dir, 'big.xml');
    writeFileSync(
      dump,
      `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/"><page><title>Bigtown</title><ns>0</ns><id>1</id>${revision(1, '2020-12-01T00:00:00Z', town(100, ''))}${revision(2, '2021-01-05T00:00:00Z', town(200, `| a = ${junk}\n| b = ${junk}\n| c = ${junk}\n`))}</page></mediawiki>\n`,
    );
    const run = await runCliOk(['--db', db, '--json', 'weekly', '--start', '2021-01-04', '--dump', dump, '--llm', 'offline', '--stages', 'collect,parse,diff,select']);
    const warnings = jsonLines(run.stderr).filter((line) => line.level === 'warn');
    expect(warnings).toEqual([
      ...['a', 'b', 'c'].map((key) =>
        expect.objectContaining({ message: `left out: value ${key} of template infobox settlement: ${junk.length + 2} characters, more than the 65536 a value may hold`, page_id: 1, rev_id: 2 }),
      ),
      // The dump's last edit is on the week's second day.
      expect.objectContaining({ message: expect.stringMatching(/^the dump holds no revision after 2021-01-05T00:00:00Z, before the week's end/) }),
    ]);
    const { stages } = JSON.parse(run.stdout) as { stages: Array<{ stage: string; counts: Record<string, number> }> };
    expect(stages.find((s) => s.stage === 'collect')?.counts).toMatchObject({ revisions: 2, left_out: 3 });
    expect(stages.find((s) => s.stage === 'select')?.counts).toMatchObject({ data_units: 1 });
  });

  it('refuses a prediction of megabytes in evaluate with one line naming it', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-02-03', '--dump', join(__dirname, '../../data/sample/sample-history.xml'), '--llm', 'offline']);
    const predictions = join(dir, 'p.jsonl');
    writeFileSync(predictions, `{"id":"25020300-101-0","prediction":"Harbour Labour"}\n{"id":"25020300-102-0","prediction":"${'very '.repeat(4_000_000)}long"}\n`);
    const result = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-02-05']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wikidelta: E_PREDICTION_TOO_LARGE: .*p\.jsonl line 2: a line of more than 610000 characters, more than the 610000 a prediction line may hold \(a prediction may hold 100000\)\n$/);
  });
});
