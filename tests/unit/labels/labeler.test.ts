import { beforeAll, describe, expect, it } from 'vitest';
import { CachingEmbedder } from '../../../src/models/embedder.js';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../../src/models/useEmbedder.js';
import { articleSentences } from '../../../src/text/articleText.js';
import { labelArticle, type LabelerModels } from '../../../src/labels/labeler.js';
import type { ArticleLabels } from '../../../src/model/labels.js';
import type { LabelTasks, SentenceChangeRequest } from '../../../src/llm/labelTasks.js';

const OLD = `'''Port Aldwin''' is a port city on the western coast of [[Caldrossa]]. It is the country's largest harbour.

== Government ==
The city is governed by mayor Oren Blake. The council has 31 members.

== Economy ==
The port handled 14.2 million tonnes of cargo in 2023. Its main exports are timber and salt. The shipyards employ 4,000 people.

== History ==
The harbour was founded by Dr. Ines Albrecht in 1901, and it grew quickly after the railway arrived. The old lighthouse was rebuilt in 1955. It was painted red. A ferry service to the islands began in 1962.

== Culture ==
The city hosts an annual lantern festival. The festival draws visitors from the whole region.
`;

const NEW = `'''Port Aldwin''' is a port city on the western coast of [[Caldrossa]]. It is the country's largest harbour.

== Government ==
The city is governed by mayor Edda Marrow. The council has 31 members.

== Culture ==
The city hosts an annual lantern festival. The festival draws visitors from the whole region.

== Economy ==
The port handled 15.1 million tonnes of cargo in 2023. Its main exports are timber and salt.

== History ==
The harbour was founded by Dr. Ines Albrecht in 1901. It grew quickly after the railway arrived. The old lighthouse was rebuilt in 1955 and was painted red. In 1962 a ferry service to the islands began.

== Transport ==
A new tram line links the harbour with the university district. Trams run every ten minutes during the day.
`;

const oldSentences = articleSentences(OLD).map((s) => s.text);
const newSentences = articleSentences(NEW).map((s) => s.text);
let labels: ArticleLabels;
let models: LabelerModels & { embedder: CachingEmbedder };

function labelOf(text: string) {
  const j = newSentences.indexOf(text);
  expect(j, text).toBeGreaterThanOrEqual(0);
  return labels.sentences[j];
}
const oldIndex = (text: string) => oldSentences.indexOf(text);

beforeAll(async () => {
  models = { embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli() };
  labels = await labelArticle(oldSentences, newSentences, models);
});

describe('labelArticle on a hand-written old/new pair (default offline models)', () => {
  it('labels an untouched paragraph unchanged by exact anchors, with no model call for it', () => {
    for (const text of ["Port Aldwin is a port city on the western coast of Caldrossa.", "It is the country's largest harbour.", 'The council has 31 members.']) {
      expect(labelOf(text)).toMatchObject({ label: 'unchanged', step: 'exact', backend: 'hash', oldIndices: [oldIndex(text)], similarity: 1 });
    }
  });

  it('follows a moved paragraph', () => {
    for (const text of ['The city hosts an annual lantern festival.', 'The festival draws visitors from the whole region.']) {
      expect(labelOf(text)?.label).toBe('unchanged');
      expect(labelOf(text)?.oldIndices).toEqual([oldIndex(text)]);
    }
  });

  it('labels a sentence split in two unchanged, both halves pointing at the old sentence', () => {
    const old = oldIndex('The harbour was founded by Dr. Ines Albrecht in 1901, and it grew quickly after the railway arrived.');
    for (const text of ['The harbour was founded by Dr. Ines Albrecht in 1901.', 'It grew quickly after the railway arrived.']) {
      expect(labelOf(text)).toMatchObject({ label: 'unchanged', oldIndices: [old] });
    }
  });

  it('labels two sentences merged into one unchanged, pointing at both', () => {
    expect(labelOf('The old lighthouse was rebuilt in 1955 and was painted red.')).toMatchObject({
      label: 'unchanged',
      oldIndices: [oldIndex('The old lighthouse was rebuilt in 1955.'), oldIndex('It was painted red.')],
    });
  });

  it('labels a paraphrase unchanged', () => {
    const label = labelOf('In 1962 a ferry service to the islands began.');
    expect(label).toMatchObject({ label: 'unchanged', oldIndices: [oldIndex('A ferry service to the islands began in 1962.')] });
  });

  it('labels a replaced number and a replaced name changed, with NLI scores and the deciding backends', () => {
    const number = labelOf('The port handled 15.1 million tonnes of cargo in 2023.');
    expect(number).toMatchObject({ label: 'changed', step: 'nli', backend: 'use-lite+heuristic-nli' });
    expect(number?.oldIndices).toEqual([oldIndex('The port handled 14.2 million tonnes of cargo in 2023.')]);
    expect(number?.nli?.contradiction).toBeGreaterThan(0.5);
    expect(number?.similarity).toBeGreaterThan(0.6);
    const name = labelOf('The city is governed by mayor Edda Marrow.');
    expect(name).toMatchObject({ label: 'changed', oldIndices: [oldIndex('The city is governed by mayor Oren Blake.')] });
  });

  it('labels an added paragraph new', () => {
    for (const text of ['A new tram line links the harbour with the university district.', 'Trams run every ten minutes during the day.']) {
      expect(labelOf(text)).toMatchObject({ label: 'new', oldIndices: [] });
    }
  });

  it('reports a removed sentence as deleted, and nothing else', () => {
    expect(labels.deleted).toEqual([oldIndex('The shipyards employ 4,000 people.')]);
  });

  it('spends model work only on the sentences that moved: far below all pairs', () => {
    const allPairs = oldSentences.length * newSentences.length;
    expect(labels.work.embedded + labels.work.nliPairs).toBeLessThan(allPairs / 2);
    expect(labels.sentences.every((label) => label.label !== 'undecided')).toBe(true);
  });

  it('asks the LLM step about every changed sentence, keeps its reason, and never makes a differing fact unchanged', async () => {
    const asked: SentenceChangeRequest[] = [];
    // A scripted provider: the real OpenAI-compatible one is tested against testkit's server (tests/integration/labelLlm.test.ts).
    const judge: LabelTasks = {
      provider: 'scripted',
      model: 'm1',
      takeUsage: () => ({ provider: 'scripted', model: 'm1', requests: 0, cacheHits: 0, failures: 0, promptTokens: 0, completionTokens: 0 }),
      judgeSentenceChange: async (request) => {
        asked.push(request);
        const verdict = request.newSentence.includes('Edda') ? 'same' : 'changed';
        return { ok: true, value: { verdict, reason: `scripted ${verdict}` }, prompt: { name: 'sentence-change', version: '1' } };
      },
    };
    const checked = await labelArticle(oldSentences, newSentences, { ...models, judge });
    const at = (text: string) => checked.sentences[newSentences.indexOf(text)];
    expect(asked.map((request) => request.newSentence).sort()).toEqual(['The city is governed by mayor Edda Marrow.', 'The port handled 15.1 million tonnes of cargo in 2023.']);
    expect(asked.find((request) => request.newSentence.includes('15.1'))?.facts).toContain('number:14.2');
    expect(at('The port handled 15.1 million tonnes of cargo in 2023.')).toMatchObject({ label: 'changed', step: 'llm', backend: 'use-lite+heuristic-nli+scripted:m1' });
    expect(at('The port handled 15.1 million tonnes of cargo in 2023.')?.evidence).toContain('scripted:m1 sentence-change@1: changed: scripted changed');
    const name = at('The city is governed by mayor Edda Marrow.');
    expect(name).toMatchObject({ label: 'undecided', step: 'llm' });
    expect(name?.evidence).toContain('kept undecided: a fact differs');
  });

  it('without an LLM step, says in the evidence that the NLI label was kept', () => {
    expect(labelOf('The port handled 15.1 million tonnes of cargo in 2023.')?.evidence).toMatch(/^no LLM step: the NLI label \(changed\) kept; facts differ: .*number:14\.2/);
  });
});
