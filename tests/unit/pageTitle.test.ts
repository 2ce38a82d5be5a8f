import { describe, expect, it } from 'vitest';
import { normaliseTitle } from '../../src/timeline/pageLookup.js';

describe('titles as MediaWiki reads them', () => {
  it('composes NFD into NFC, as MediaWiki stores titles', () => {
    expect(normaliseTitle('Zu\u0308rich')).toBe('Z\u00fcrich');
  });

  it('uppercases the first character and only that one', () => {
    expect(normaliseTitle('berlin')).toBe('Berlin');
    expect(normaliseTitle('ñandú')).toBe('Ñandú');
    expect(normaliseTitle('iPhone')).toBe('IPhone');
  });

  it('reads underscores as spaces, collapses runs of them and trims the ends', () => {
    expect(normaliseTitle('  new__york_ city ')).toBe('New york city');
  });

  it('keeps a first character whose capital is longer than one character, as MediaWiki does for ß', () => {
    expect(normaliseTitle('ßtest')).toBe('ßtest');
  });
});
