import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDate, windowFrom } from '../../src/dates.js';
import { loadSettings } from '../../src/settings.js';
import { withCode } from '../support/errorCodes.js';

describe('dates', () => {
  it('builds the half-open window [start, start + days)', () => {
    expect(windowFrom('2025-02-03', 7)).toEqual({ start: '2025-02-03T00:00:00Z', end: '2025-02-10T00:00:00Z' });
  });

  it('rejects malformed and impossible dates by name', () => {
    expect(() => parseDate('2025-02-30', '--start date')).toThrow(withCode('E_DATE_INVALID', 'invalid --start date "2025-02-30"'));
    expect(() => parseDate('03/02/2025')).toThrow(withCode('E_DATE_INVALID'));
  });
});

describe('settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wikidelta-settings-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ seed: 5, revertHours: 12, db: 'from-file.sqlite' }));

  it('takes flags over the environment over the config file', () => {
    const settings = loadSettings({ configPath: config, env: { WIKIDELTA_SEED: '9', WIKIDELTA_DB: 'env.sqlite' }, flags: { db: 'flag.sqlite' }, cwd: dir });
    expect(settings).toMatchObject({ db: 'flag.sqlite', seed: 9, revertHours: 12, maxInFlight: 3 });
  });

  it('names the bad setting and where it came from', () => {
    expect(() => loadSettings({ env: { WIKIDELTA_MAX_IN_FLIGHT: '8' }, cwd: dir })).toThrow(
      withCode('E_SETTING_INVALID', /invalid setting maxInFlight="8" \(from environment WIKIDELTA_MAX_IN_FLIGHT\): Wikimedia asks for at most 3/),
    );
    writeFileSync(join(dir, 'bad.json'), '{"sede": 1}');
    expect(() => loadSettings({ configPath: join(dir, 'bad.json'), env: {}, cwd: dir })).toThrow(withCode('E_CONFIG_UNKNOWN_SETTING', /unknown setting "sede"/));
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(() => loadSettings({ configPath: join(dir, 'broken.json'), env: {}, cwd: dir })).toThrow(withCode('E_CONFIG_INVALID'));
  });

  it('refuses "__proto__" in a config file as an unknown setting, and a null, list or object as a value', () => {
    writeFileSync(join(dir, 'proto.json'), '{"__proto__": {"seed": 5}}');
    expect(() => loadSettings({ configPath: join(dir, 'proto.json'), env: {}, cwd: dir })).toThrow(withCode('E_CONFIG_UNKNOWN_SETTING', /unknown setting "__proto__"/));
    for (const value of ['null', '[7]', '{"n": 7}']) {
      writeFileSync(join(dir, 'typed.json'), `{"seed": ${value}}`);
      expect(() => loadSettings({ configPath: join(dir, 'typed.json'), env: {}, cwd: dir })).toThrow(withCode('E_SETTING_INVALID', /invalid setting seed=.* expected a text, a number or a boolean/));
    }
  });

  it('refuses a number setting written as a boolean or not in decimal, which coercion would read as 1 or 16', () => {
    for (const value of ['true', '"0x10"', '"7 apples"', '""']) {
      writeFileSync(join(dir, 'number.json'), `{"seed": ${value}}`);
      expect(() => loadSettings({ configPath: join(dir, 'number.json'), env: {}, cwd: dir }), value).toThrow(withCode('E_SETTING_INVALID', /invalid setting seed=.*expected number/));
    }
    expect(loadSettings({ env: { WIKIDELTA_SEED: ' 12 ', WIKIDELTA_LLM_TEMPERATURE: '0.5', WIKIDELTA_REVERT_HOURS: '1e1' }, cwd: dir })).toMatchObject({ seed: 12, llmTemperature: 0.5, revertHours: 10 });
  });

  it('reads a config file with a byte order mark and CRLF line ends', () => {
    writeFileSync(join(dir, 'bom.json'), '\uFEFF{"seed": 3}\r\n');
    expect(loadSettings({ configPath: join(dir, 'bom.json'), env: {}, cwd: dir }).seed).toBe(3);
  });

  it('takes a blank environment variable as unset, as an empty one', () => {
    expect(loadSettings({ configPath: config, env: { WIKIDELTA_SEED: '  ', WIKIDELTA_REVERT_HOURS: ' ' }, cwd: dir })).toMatchObject({ seed: 5, revertHours: 12 });
  });
});
