import { describe, expect, it } from 'vitest';
import { normaliseTitle, sameTitle } from '../../../src/text/titles.js';

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

  it('compares two titles by that one rule, as the descriptiveness check does', () => {
    expect(sameTitle('port_Aldwin', 'Port Aldwin')).toBe(true);
    expect(sameTitle('Zu\u0308rich', 'Z\u00fcrich')).toBe(true);
    expect(sameTitle('ßtest', 'SStest')).toBe(false);
    expect(sameTitle('Port Aldwin', 'Port aldwin')).toBe(false);
  });
});
