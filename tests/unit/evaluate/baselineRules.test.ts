import { describe, expect, it } from 'vitest';
import { fillBlank, OfflineBaselineTasks } from '../../../src/llm/offlineBaselineTasks.js';
import { predictAll, predictionLines } from '../../../src/evaluate/predictBaseline.js';
import { MAX_PREDICTION_CHARS } from '../../../src/evaluate/predictions.js';

describe('offline baseline rules', () => {
  const tasks = new OfflineBaselineTasks();

  it('reads the asked key from the golden document, and has no answer closed-book or without the key', async () => {
    const document = { title: 'Port Aldwin', text: 'Port Aldwin is a city.', infobox: { population_total: '418,950', mayor: 'Ana Reyes' } };
    expect(await tasks.answerFromDocument({ text: 'How many people live in Port Aldwin?', date: '2025-01-27', key: 'mayor' }, document)).toMatchObject({ ok: true, value: { answer: 'Ana Reyes' } });
    expect(await tasks.answerFromDocument({ text: 'Who?', date: '2025-01-27', key: 'area_km2' }, document)).toMatchObject({ ok: true, value: { answer: '' } });
    expect(await tasks.answerClosedBook()).toMatchObject({ ok: true, value: { answer: '' }, prompt: { name: 'offline-baseline-rules' } });
  });

  it('fills a cloze blank from the sentence it was made from, punctuation and regex characters included', () => {
    const question = 'In the article "Port Aldwin", what fills the blank: "The port handled about ___ million tonnes (est.) in 2024"?';
    expect(fillBlank(question, ['Unrelated sentence.', 'The port handled about 3.7 million tonnes (est.) in 2024.'])).toBe('3.7');
    expect(fillBlank(question, ['The port handled 3.7 million tonnes.'])).toBeNull();
    expect(fillBlank('What is the population of Port Aldwin?', ['It has 418,950 people.'])).toBeNull();
  });
});

describe('predictAll', () => {
  it('keeps item order, predicts "" for failed calls and items without a reference, and counts both', async () => {
    const items = Array.from({ length: 130 }, (_, i) => ({ id: `q${i}` }));
    const outcome = await predictAll(items, (item) => {
      const n = Number(item.id.slice(1));
      if (n % 10 === 0) return null;
      const prompt = { name: 'test', version: '1' };
      return Promise.resolve(n % 7 === 0 ? { ok: false as const, reason: 'invalid reply', prompt } : { ok: true as const, value: { answer: `a${n}` }, prompt });
    });
    expect(outcome.predictions.map((p) => p.id)).toEqual(items.map((item) => item.id));
    expect(outcome.withoutReference).toBe(13);
    expect(outcome.failed).toBe(items.filter((_, i) => i % 10 !== 0 && i % 7 === 0).length);
    expect(outcome.predictions[7]).toEqual({ id: 'q7', prediction: '' });
    expect(outcome.predictions[11]).toEqual({ id: 'q11', prediction: 'a11' });
    expect(predictionLines(outcome.predictions.slice(11, 12))).toEqual(['{"id":"q11","prediction":"a11"}\n']);
  });

  it('counts a reply longer than evaluate reads as failed and predicts "", so the file it writes can be scored', async () => {
    const prompt = { name: 'test', version: '1' };
    const answers: Record<string, string> = { fits: 'A'.repeat(MAX_PREDICTION_CHARS), huge: 'A'.repeat(MAX_PREDICTION_CHARS + 1) };
    const outcome = await predictAll([{ id: 'fits' }, { id: 'huge' }], (item) => Promise.resolve({ ok: true as const, value: { answer: answers[item.id] as string }, prompt }));
    expect(outcome.failed).toBe(1);
    expect(outcome.predictions.map((p) => p.prediction.length)).toEqual([MAX_PREDICTION_CHARS, 0]);
  });
});
