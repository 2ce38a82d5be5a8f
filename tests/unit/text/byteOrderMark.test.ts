import { describe, expect, it } from 'vitest';
import { withoutByteOrderMark } from '../../../src/text/byteOrderMark.js';

describe('withoutByteOrderMark', () => {
  it('drops one leading byte order mark and nothing else', () => {
    expect(withoutByteOrderMark('\uFEFF{"a": 1}')).toBe('{"a": 1}');
    expect(withoutByteOrderMark('{"a": "\uFEFF"}')).toBe('{"a": "\uFEFF"}');
    expect(withoutByteOrderMark('\uFEFF\uFEFFx')).toBe('\uFEFFx');
    expect(withoutByteOrderMark('')).toBe('');
  });
});
