/**
 * The pages' script and style: plain files under src/serve/assets, served as they are (no
 * front-end build), read once when the app is built.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../packageRoot.js';

export interface Asset {
  body: string;
  type: string;
}

const FILES: Record<string, string> = {
  'annotator.js': 'text/javascript; charset=utf-8',
  'admin.js': 'text/javascript; charset=utf-8',
  'audit.css': 'text/css; charset=utf-8',
};

export function loadAssets(): Map<string, Asset> {
  const folder = join(packageRoot(), 'src/serve/assets');
  return new Map(Object.entries(FILES).map(([name, type]) => [name, { body: readFileSync(join(folder, name), 'utf8'), type }]));
}
