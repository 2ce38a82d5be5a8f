/**
 * Annotator names: "admin" names the maintainer in `audit links --annotators admin`, so an annotator
 * may not take it (renewing one link would end both, and every export row of the two would read
 * "admin").
 */
import { describe, expect, it } from 'vitest';
import { checkedNames } from '../../../../pipelines/audit/build.js';

describe('checkedNames', () => {
  it('keeps valid names in order', () => {
    expect(checkedNames(['alice', 'bob.b', 'carol_3'])).toEqual(['alice', 'bob.b', 'carol_3']);
  });

  it('refuses a name given twice', () => {
    expect(() => checkedNames(['alice', 'alice'])).toThrow(expect.objectContaining({ code: 'E_ANNOTATOR_DUPLICATE' }));
  });

  it('refuses "admin", the maintainer\'s name', () => {
    expect(() => checkedNames(['admin', 'bob'])).toThrow(expect.objectContaining({ code: 'E_ANNOTATOR_DUPLICATE', message: expect.stringMatching(/admin names the maintainer/) }));
  });
});
