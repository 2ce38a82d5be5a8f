import { describe, expect, it } from 'vitest';
import { MAX_PREDICTION_CHARS, parsePredictions } from '../../../src/evaluate/predictions.js';
import { withCode } from '../../support/errorCodes.js';

describe('the cap on one prediction', () => {
  const long = 'Paris '.repeat(Math.ceil((MAX_PREDICTION_CHARS + 1) / 6));

  it('refuses a JSONL prediction over the cap naming its line, and takes one at the cap', () => {
    const file = `{"id":"q1","prediction":"Paris"}\n{"id":"q2","prediction":${JSON.stringify(long)}}\n`;
    expect(() => parsePredictions(file, 'p.jsonl')).toThrow(withCode('E_PREDICTION_TOO_LARGE', `p.jsonl line 2: a prediction of ${long.length} characters, more than the ${MAX_PREDICTION_CHARS} a prediction may hold`));
    const atCap = 'x'.repeat(MAX_PREDICTION_CHARS);
    expect(parsePredictions(`{"id":"q1","prediction":"${atCap}"}\n`, 'p.jsonl')[0]?.prediction).toHaveLength(MAX_PREDICTION_CHARS);
  });

  it('refuses a line far over the cap before parsing it, and a results JSON prediction over the cap naming its id', () => {
    const huge = `{"id":"q1","prediction":"${'a'.repeat(7 * MAX_PREDICTION_CHARS)}"}\n`;
    expect(() => parsePredictions(huge, 'p.jsonl')).toThrow(withCode('E_PREDICTION_TOO_LARGE'));
    const results = JSON.stringify({ q7: { prediction: { text: long } } }, null, 1);
    expect(() => parsePredictions(results, 'r.json')).toThrow(withCode('E_PREDICTION_TOO_LARGE', `r.json id "q7": a prediction of ${long.length} characters, more than the ${MAX_PREDICTION_CHARS} a prediction may hold`));
  });
});
