import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EntityName } from '../../../src/model.js';
import { LabelsFile } from '../../../src/sources/entityNames.js';
import { tempDir } from '../../../testkit/cli.js';
import { labelsDump } from '../../../testkit/entityWeeks.js';

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
});
