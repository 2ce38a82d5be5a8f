import { describe, expect, it } from 'vitest';
import { apiUrl } from '../../../src/sources/openSource.js';
import { withCode } from '../../support/errorCodes.js';

describe('--api URL', () => {
  it('takes an http or https address, and refuses at once what no wiki answers on (not after every retry)', () => {
    expect(apiUrl('https://en.wikipedia.org/w/api.php', '--api').host).toBe('en.wikipedia.org');
    expect(apiUrl('http://127.0.0.1:8080/api.php', '--api').port).toBe('8080');
    for (const text of ['ftp://x/api.php', 'file:///etc/passwd', 'notaurl', 'javascript:alert(1)']) {
      expect(() => apiUrl(text, '--labels-api')).toThrow(withCode('E_FLAG_INVALID', new RegExp(`^invalid --labels-api URL "${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": expected an http or https address`)));
    }
  });
});
