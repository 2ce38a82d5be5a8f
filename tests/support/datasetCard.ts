/** A release's Hugging Face card read back: its YAML front matter parsed, every file it names present and JSON lines. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

const Card = z.object({
  license: z.literal('cc-by-sa-4.0'),
  language: z.array(z.string().min(2)).min(1),
  task_categories: z.array(z.string()).min(1),
  configs: z.array(z.object({ config_name: z.string(), data_files: z.array(z.object({ split: z.string().regex(/^\w+$/), path: z.string() })).min(1) })).min(1),
});

/** The card's YAML front matter, checked: every named file exists and every line of it is JSON. */
export function checkCard(dir: string): z.infer<typeof Card> {
  const text = readFileSync(join(dir, 'README.md'), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(match, 'front matter').not.toBeNull();
  const card = Card.parse(parseYaml(match?.[1] ?? ''));
  for (const config of card.configs) {
    for (const file of config.data_files) {
      const path = join(dir, file.path);
      expect(existsSync(path), file.path).toBe(true);
      for (const line of readFileSync(path, 'utf8').split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line)).not.toThrow();
    }
  }
  return card;
}
