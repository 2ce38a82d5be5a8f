/**
 * A full disk is named as such whichever SQLite error shows it: SQLITE_FULL when a page cannot be
 * written, or an I/O error when the WAL index (-shm) cannot grow, which a command meets on opening
 * the store (it read "not a usable wikidelta store", and a maintainer might have thrown away a sound
 * store).
 */
import { describe, expect, it } from 'vitest';
import { storeProblem } from '../../../src/store/database.js';

const FULL_LINE = 'database /tmp/w.sqlite: the disk is full: free space on it and run the command again (a run continues where it stopped)';

describe('storeProblem on a full disk', () => {
  const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_SHMSIZE' });

  it('names an I/O error on a disk with no space left as the full disk, saying what to do', () => {
    const problem = storeProblem(ioError, '/tmp/w.sqlite', () => 0);
    expect([problem?.code, problem?.message]).toEqual(['E_STORE_DISK_FULL', FULL_LINE]);
    const full = storeProblem(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), '/tmp/w.sqlite', () => 10 ** 12);
    expect([full?.code, full?.message]).toEqual(['E_STORE_DISK_FULL', FULL_LINE]);
  });

  it('leaves an I/O error on a disk with room, or whose room cannot be told, as it was', () => {
    expect(storeProblem(ioError, '/tmp/w.sqlite', () => 10 ** 12)).toBeUndefined();
    expect(storeProblem(ioError, '/tmp/w.sqlite', () => undefined)).toBeUndefined();
  });
});
