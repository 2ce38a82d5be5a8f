import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { datedSink, parsePredictions, readPredictionFile, type Prediction } from '../../../src/evaluate/index.js';
import { withCode } from '../../support/errorCodes.js';

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-predictions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(content: string): Prediction[] {
  const path = join(dir, 'p.jsonl');
  writeFileSync(path, content);
  const out: Prediction[] = [];
  readPredictionFile(path, (p) => out.push(p));
  return out;
}

describe('reading a JSONL prediction file', () => {
  it('reads the lines JSON.stringify writes as JSON.parse would, escapes, spaces and other keys included', () => {
    const lines = [
      { id: 'q1', prediction: 'Paris', date: '2025-01-04' },
      { id: 'q2', prediction: '' },
      { id: 'q3', prediction: 'say "hi"\\ back', date: '2025-01-04' },
      { id: 'q4', prediction: 'tab\there\u0085 and é, 日本' },
      { id: 7, prediction: 'numbered' },
      { prediction: 'key order', id: 'q5' },
    ].map((line) => JSON.stringify(line));
    lines.push('  {"id": "q6", "prediction": "spaced", "date": "2025-01-05"}\r', '\ufeff{"id":"q7","prediction":"after a BOM"}');
    const content = `${lines.join('\n')}\n`;
    expect(read(content)).toEqual(parsePredictions(content, 'p.jsonl'));
    expect(read(content).map((p) => p.id)).toEqual(['q1', 'q2', 'q3', 'q4', '7', 'q5', 'q6', 'q7']);
  });

  it('keeps the errors of the full parse on lines of the plain shape', () => {
    expect(() => read('{"id":"q1","prediction":"a","date":"2025-02-30"}\n')).toThrow(withCode('E_PREDICTIONS_INVALID'));
    expect(() => read('{"id":"q1","prediction":"a"}\n{"id":"","prediction":"b"}\n')).toThrow(withCode('E_PREDICTIONS_INVALID'));
    expect(() => read('{"id":"q1","prediction":"a\u0001"}\n')).toThrow(withCode('E_PREDICTIONS_INVALID'));
  });

  it('reads lines across the chunks it reads the file in, multi-byte characters included, and a last line without a newline', () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => JSON.stringify({ id: `q${i}`, prediction: `réponse ${'é'.repeat(i % 7)} ${i}`, date: '2025-01-04' }));
    const out = read(lines.join('\n'));
    expect(out).toHaveLength(40_000);
    expect(out[39_999]).toEqual({ id: 'q39999', prediction: `réponse ${'é'.repeat(39_999 % 7)} 39999`, date: '2025-01-04' });
    expect(out.every((p, i) => p.prediction === `réponse ${'é'.repeat(i % 7)} ${i}`)).toBe(true);
  });

  it('reads a SQuAD JSON whose first line is not an object of its own', () => {
    expect(read('{\n  "q1": "Paris",\n  "q2": ""\n}\n')).toEqual([
      { id: 'q1', prediction: 'Paris', date: null },
      { id: 'q2', prediction: '', date: null },
    ]);
  });
});

describe('prediction files a researcher gets wrong', () => {
  it('refuses a file that holds no prediction: empty, blank lines, or an empty SQuAD object', () => {
    for (const content of ['', '\n\n  \n', '{}\n', '{\n}\n']) expect(() => read(content)).toThrow(withCode('E_PREDICTIONS_INVALID', /p\.jsonl: holds no predictions; expected JSONL/));
  });

  it('refuses a compressed or UTF-16 file by what it is, not as line 1 not being JSON', () => {
    const path = join(dir, 'encoded.jsonl');
    const text = '{"id":"q1","prediction":"Paris"}\n';
    const cases: Array<[Buffer, RegExp]> = [
      [gzipSync(text), /encoded\.jsonl: is gzip-compressed: decompress it first \(gunzip\)/],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /encoded\.jsonl: is UTF-16 text: save it as UTF-8/],
      [Buffer.from(text, 'utf16le'), /encoded\.jsonl: is UTF-16 text: save it as UTF-8/],
    ];
    for (const [bytes, message] of cases) {
      writeFileSync(path, bytes);
      expect(() => readPredictionFile(path, () => {})).toThrow(withCode('E_PREDICTIONS_INVALID', message));
    }
  });

  it('refuses bytes that are not UTF-8 (a Latin-1 file) naming the line, and keeps a replacement character written as text', () => {
    const path = join(dir, 'latin1.jsonl');
    const line = (prediction: string) => `${JSON.stringify({ id: 'q', prediction })}\n`;
    writeFileSync(path, Buffer.concat([Buffer.from(line('Paris')), Buffer.from(line('Orléans'), 'latin1')]));
    expect(() => readPredictionFile(path, () => {})).toThrow(withCode('E_PREDICTIONS_INVALID', /^\S*latin1\.jsonl line 2: bytes that are not UTF-8 \(saved as Latin-1 or Windows-1252\?\): save it as UTF-8$/));
    writeFileSync(path, Buffer.from('{\n  "q1": "Orléans"\n}\n', 'latin1'));
    expect(() => readPredictionFile(path, () => {})).toThrow(withCode('E_PREDICTIONS_INVALID', /^\S*latin1\.jsonl: bytes that are not UTF-8/));
    writeFileSync(path, line('a \ufffd b'));
    expect(read(readFileSync(path, 'utf8'))).toEqual([{ id: 'q', prediction: 'a \ufffd b', date: null }]);
  });

  it('refuses a line that is JSON but no object as a file of another shape, naming the shapes it reads', () => {
    for (const [content, what] of [['["q1", "Paris"]\n', 'a JSON array'], ['"Paris"\n', 'JSON string'], ['null\n', 'JSON null']] as const) {
      expect(() => read(content)).toThrow(withCode('E_PREDICTIONS_INVALID', `p.jsonl line 1: ${what}, not an object; expected JSONL {id, prediction[, date]}`));
    }
  });

  it('refuses a results JSON too large to be read whole, naming JSONL, which is read line by line', () => {
    const path = join(dir, 'huge.json');
    writeFileSync(path, '{\n  "q1": "Paris",\n');
    // Sparse: the size is what is checked, before anything past the first chunk is read.
    truncateSync(path, 300 * 2 ** 20);
    expect(() => readPredictionFile(path, () => {})).toThrow(withCode('E_PREDICTIONS_INVALID', /huge\.json: a results JSON of 300 MiB, read whole, is over the 256 MiB it may hold: write it as JSONL/));
    rmSync(path);
  });

  it('refuses a directory as a file, naming it', () => {
    expect(() => readPredictionFile(dir, () => undefined)).toThrow(withCode('E_FILE_UNREADABLE', /^cannot read predictions .*: a directory, not a file$/));
  });

  it('refuses an id given twice in a SQuAD object, which JSON.parse would settle by keeping the last, naming the line', () => {
    expect(() => read('{\n  "q1": "wrong",\n  "q2": "Paris",\n  "q\\u0031": "right"\n}\n')).toThrow(withCode('E_PREDICTION_DUPLICATE', /^.*p\.jsonl line 4: id "q1" is predicted twice$/));
    // The same key inside a GrowOVER entry, or as a value, is no duplicate.
    expect(read('{\n  "q1": {"prediction": {"text": "q2"}},\n  "q2": {"prediction": {"text": "x"}}\n}\n').map((p) => p.id)).toEqual(['q1', 'q2']);
  });

  it('reads a SQuAD object after a byte-order mark, as it reads JSONL lines after one', () => {
    expect(read('\ufeff{\n  "q1": "Paris"\n}\n')).toEqual([{ id: 'q1', prediction: 'Paris', date: null }]);
  });

  it('names the line where a SQuAD object stops being JSON', () => {
    expect(() => read('{\n  "q1": "Paris",\n  "q2": "Lyon"\n  "q3": "Nice"\n}\n')).toThrow(withCode('E_PREDICTIONS_INVALID', /p\.jsonl line 4: not valid JSON/));
  });
});

describe('dating predictions', () => {
  it('names the file and the line of a prediction that names no date when the evaluation gives none', () => {
    const sink = datedSink(null, () => undefined);
    expect(() => sink({ id: 'q1', prediction: 'Paris', date: null }, 'p.jsonl', 3)).toThrow(withCode('E_PREDICTIONS_INVALID', /^p\.jsonl line 3: the prediction for "q1" names no date: give --date D/));
  });
});
