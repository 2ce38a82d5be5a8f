import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPredictionFile, ThreadedPredictionFile, type Prediction, type PredictionSink } from '../../src/evaluate/index.js';
import { UserError } from '../../src/errors.js';
import { withCode } from '../support/errorCodes.js';

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-threaded-predictions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Read = { prediction: Prediction; source: string; line: number };

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The file (or files, in turn) read through the thread, which is stopped when the reading ends or the sink throws, as `evaluate weekly` reads it. */
function readInThread(path: string | string[], sink: PredictionSink): void {
  const threaded = new ThreadedPredictionFile(path);
  try {
    threaded.read(sink);
  } finally {
    void threaded.close();
  }
}

/** What each reader hands on, and what it throws (null when it reads the file through). */
function both(path: string): { direct: Read[]; threaded: Read[]; errors: [unknown, unknown] } {
  const direct: Read[] = [];
  const threaded: Read[] = [];
  const caught = (read: () => void): unknown => {
    try {
      read();
      return null;
    } catch (error) {
      return error;
    }
  };
  const errors: [unknown, unknown] = [
    caught(() => readPredictionFile(path, (prediction, source, line) => direct.push({ prediction, source, line }))),
    caught(() => readInThread(path, (prediction, source, line) => threaded.push({ prediction, source, line }))),
  ];
  return { direct, threaded, errors };
}

const withoutKey = ({ prediction: { key: _key, ...prediction }, source, line }: Read) => ({ prediction, source, line });

describe('a prediction file read on a second thread', () => {
  it('hands on what the reader on this thread hands on, in order, with the same lines, over many batches, each id with one key', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `q${i % 3000}`, prediction: `réponse ${i}`, date: `2025-01-${String(4 + (i % 20)).padStart(2, '0')}` }));
    // Lines the fast path does not read: escapes, another key order, no date.
    lines.splice(7, 0, JSON.stringify({ prediction: 'say "hi"', id: 'odd' }), JSON.stringify({ id: 7, prediction: 'numbered', date: '2025-02-01' }));
    const { direct, threaded, errors } = both(file('many.jsonl', `${lines.join('\n')}\n`));
    expect(errors).toEqual([null, null]);
    expect(threaded.map(withoutKey)).toEqual(direct);
    const keyOf = new Map<string, number>();
    for (const { prediction } of threaded) {
      expect(prediction.key).toBeTypeOf('number');
      expect(keyOf.get(prediction.id) ?? prediction.key).toBe(prediction.key);
      keyOf.set(prediction.id, prediction.key as number);
    }
    expect(new Set(keyOf.values()).size).toBe(keyOf.size);
  });

  it("reads several files in turn as one, each prediction with its own file's name and line, one key per id across the files", () => {
    // A system's weekly files: one id in two of them (its week's file and a later date's), 6,000 lines in
    // all so that a batch is cut at a file's end, and a results JSON among them.
    const weekly = (from: number, date: string) => Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `q${from + i}`, prediction: `${from + i}`, date })).join('\n');
    const paths = [file('sys-a.jsonl', weekly(0, '2025-01-20')), file('sys-b.json', '{"q1": "one", "z": "zed"}'), file('sys-c.jsonl', weekly(1500, '2025-01-27'))];
    const direct: Read[] = [];
    for (const path of paths) readPredictionFile(path, (prediction, source, line) => direct.push({ prediction, source, line }));
    const threaded: Read[] = [];
    readInThread(paths, (prediction, source, line) => threaded.push({ prediction, source, line }));
    expect(threaded.map(withoutKey)).toEqual(direct);
    expect(new Set(threaded.map((read) => read.source))).toEqual(new Set(paths));
    const keyOf = new Map<string, number>();
    for (const { prediction } of threaded) {
      expect(keyOf.get(prediction.id) ?? prediction.key).toBe(prediction.key);
      keyOf.set(prediction.id, prediction.key as number);
    }
    expect(keyOf.size).toBe(4501);
    expect(new Set(keyOf.values()).size).toBe(keyOf.size);
  });

  it('reads a results JSON whole, as the reader on this thread does', () => {
    const { direct, threaded, errors } = both(file('results.json', '{\n  "q1": {"prediction": {"text": "Paris"}},\n  "q2": "Lyon"\n}\n'));
    expect(errors).toEqual([null, null]);
    expect(threaded.map(withoutKey)).toEqual(direct);
  });

  it('throws the error the reader on this thread throws, with its code, after handing on the lines before it', () => {
    const good = Array.from({ length: 9000 }, (_, i) => JSON.stringify({ id: `q${i}`, prediction: 'x' }));
    const { direct, threaded, errors } = both(file('broken.jsonl', `${good.join('\n')}\n{"id": "q9000", "prediction": \n`));
    expect(errors[0]).toBeInstanceOf(UserError);
    expect(errors[1]).toBeInstanceOf(UserError);
    expect((errors[1] as UserError).code).toBe((errors[0] as UserError).code);
    expect((errors[1] as UserError).message).toBe((errors[0] as UserError).message);
    expect((errors[1] as UserError).message).toContain('line 9001');
    expect(threaded.map(withoutKey)).toEqual(direct);
    expect(threaded).toHaveLength(9000);
  });

  it('names a file it cannot read as the reader on this thread does', () => {
    expect(() => readInThread(join(dir, 'missing.jsonl'), () => {})).toThrow(withCode('E_FILE_UNREADABLE'));
  });

  it('stops reading when the sink throws, and a file opened but never read is closed', async () => {
    const path = file('long.jsonl', Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ id: `q${i}`, prediction: 'x' })).join('\n'));
    let seen = 0;
    expect(() =>
      readInThread(path, () => {
        if (++seen === 10) throw new UserError('E_PREDICTION_DUPLICATE', 'tenth');
      }),
    ).toThrow('tenth');
    expect(seen).toBe(10);
    await expect(new ThreadedPredictionFile(path).close()).resolves.toBeTypeOf('number');
  });
});
