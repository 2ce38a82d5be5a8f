import { describe, expect, it } from 'vitest';
import { answersById } from '../../../src/timeline/dailyqaImport.js';
import { withCode } from '../../support/errorCodes.js';

const day = (path: string, date: string, rows: Array<[string, string | null]>) => ({
  path,
  date,
  rows: rows.map(([id, answer]) => ({ id, query: `question ${id}?`, answer })),
});

describe('per-day answers gathered by query id', () => {
  it("gathers each id's answers by date, and accepts the same answer given twice", () => {
    const byId = answersById([
      day('qa_210104.jsonl', '2021-01-04', [['a', 'one'], ['a', 'one'], ['b', null]]),
      day('qa_210105.jsonl', '2021-01-05', [['a', 'two']]),
    ]);
    expect([...(byId.get('a')?.days ?? [])]).toEqual([['2021-01-04', 'one'], ['2021-01-05', 'two']]);
    expect([...(byId.get('b')?.days ?? [])]).toEqual([['2021-01-04', null]]);
  });

  it('refuses one id with two different answers on one date, naming the id, the date and both files', () => {
    expect(() =>
      answersById([day('qa_210104.jsonl', '2021-01-04', [['a', 'one']]), day('qa_210104.jsonl.gz', '2021-01-04', [['a', 'uno']])]),
    ).toThrow(withCode('E_DAILYQA_CONFLICT', 'query a has two answers for 2021-01-04: "one" (qa_210104.jsonl) and "uno" (qa_210104.jsonl.gz); keep one and import again'));
    expect(() => answersById([day('qa_210104.jsonl', '2021-01-04', [['a', 'one'], ['a', null]])])).toThrow(withCode('E_DAILYQA_CONFLICT', /query a has two answers for 2021-01-04: "one" \(qa_210104\.jsonl\) and null \(qa_210104\.jsonl\)/));
  });
});
