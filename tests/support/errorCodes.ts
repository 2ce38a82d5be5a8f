/**
 * Tests say which error happened by its stable code (src/errors.ts), not by its English, so that
 * a reworded line breaks no test; a test keeps a message assertion only where the wording is the point.
 */
import { expect } from 'vitest';
import { UserError, type ErrorCode } from '../../src/errors.js';

/**
 * Matches an error by its code, thrown or rejected; `message` too (a part of it, or a pattern) where
 * the wording is the point (that the line names the file, the line or the page).
 *
 * @example expect(() => parseDate('2025-02-30')).toThrow(withCode('E_DATE_INVALID'))
 * @example await expect(collect(path)).rejects.toThrow(withCode('E_DUMP_TRUNCATED', /inside page "Berlin"/))
 */
export function withCode(code: ErrorCode, message?: string | RegExp): unknown {
  if (message === undefined) return expect.objectContaining({ code });
  return expect.objectContaining({ code, message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) });
}

/** The UserError `run` throws, for a test that reads its code and line; fails the test when it throws none. */
export function refusal(run: () => unknown): UserError {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('not refused');
}
