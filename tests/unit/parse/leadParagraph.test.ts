import { describe, expect, it } from 'vitest';
import { firstParagraph } from '../../../src/parse/leadParagraph.js';

const nested = (depth: number) => '{{lang|'.repeat(depth) + 'x' + '}}'.repeat(depth);

describe('firstParagraph', () => {
  it('renders a lead whose inline templates nest as real ones do', () => {
    expect(firstParagraph(`Alpha is a town ${nested(5)} in Beta.\n\n== History ==\nFounded.`)).toBe('Alpha is a town in Beta.');
  });

  it('gives no paragraph, rather than markup or seconds of parsing, for templates nested thousands deep', () => {
    expect(firstParagraph(`Alpha is a town ${nested(3000)} in Beta.`)).toBe('');
    expect(firstParagraph(`Alpha is a town ${nested(1000)} in Beta.`)).toBe('');
  });
});
