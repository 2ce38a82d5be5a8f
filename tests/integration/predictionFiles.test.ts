/** Prediction files as RealTimeQA publishes its questions, read from the question file of ../shared/data. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePredictions } from '../../src/evaluate/index.js';
import { sharedData } from '../../testkit/sharedData.js';
import { withCode } from '../support/errorCodes.js';

const REALTIMEQA = join(sharedData, 'realtimeqa-samples');

describe('prediction files', () => {
  it("reads RealTimeQA's submission lines: question_id, its question_date, a choice index through the line's choices, score ignored", () => {
    // The published question file of 2025-01-03, each line made a submission as RealTimeQA's baselines
    // write them: the question's own line with the system's choice as `prediction`.
    const questions = readFileSync(join(REALTIMEQA, '20250103_qa.jsonl'), 'utf8').split('\n').filter((line) => line !== '');
    const submission = questions
      .map((line) => JSON.parse(line) as { question_id: string; question_date: string; choices: string[]; answer: string[] })
      .map((q) => JSON.stringify({ question_id: q.question_id, question_date: q.question_date, choices: q.choices, prediction: q.answer, score: '0.5' }));
    const parsed = parsePredictions(submission.join('\n'), 'rtqa.jsonl');
    expect(parsed).toHaveLength(questions.length);
    expect(parsed[0]).toEqual({ id: '20250103_0', prediction: 'Through open adoption', date: '2025-01-01' });
    // A generated answer is text, as in RealTimeQA's generation baselines.
    expect(parsePredictions('{"question_id": "20250103_1", "prediction": "It was vetoed by the governor", "score": "0.9"}', 'gen.jsonl')).toEqual([
      { id: '20250103_1', prediction: 'It was vetoed by the governor', date: null },
    ]);
    // A choice index without the choices cannot be scored against an open answer: the line and the field are named.
    expect(() => parsePredictions('{"question_id": "20250103_0", "prediction": ["1"], "score": "0.4"}', 'mc.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID', /^mc\.jsonl line 1: field "prediction": a list of choice indices \(RealTimeQA's multiple-choice submission\) needs the line's "choices"/));
    expect(() => parsePredictions(`${submission[0]}\n{"question_id": "x", "question_date": "2025/13/01", "prediction": "a"}`, 'rtqa.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID', /^rtqa\.jsonl line 2: field "question_date": "2025-13-01" is not a real calendar date/));
  });
});
