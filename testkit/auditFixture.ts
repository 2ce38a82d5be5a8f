/**
 * An audit made through the real AuditStore, for the server's tests and benchmark: items of the
 * three kinds (sentence labels, QA items, weekly questions), one of them carrying script, an
 * event-handler image and a javascript: link in its wiki text, assigned to every annotator. The
 * weekly item's infobox is as long as a real club's, its changed key far down in source order.
 */
import type { ShippedItemContent } from '../src/audit/kinds/index.js';
import type { PredictionContent } from '../src/audit/kinds/prediction.js';
import { hashToken, type AuditInfo, type AuditItem, type AuditItemContent } from '../src/model/audit.js';
import { newToken } from '../src/audit/tokens.js';
import type { Store } from '../src/store/store.js';

export const HOSTILE = {
  script: '<script>alert(1)</script>',
  image: '<img src=x onerror=alert(2)>',
  link: '[javascript:alert(3) the official site]',
};

const ARTICLE =
  'Riverton is a town on the Ash river. It was founded in 1821 by mill owners. The town has a station on the northern line. ' +
  'Its population was 11,200 at the 2020 census, up from 9,800 in 2010. The mayor is Jane Doe, elected in 2022. ' +
  'The old bridge, opened in 1932, was replaced in 2019.';

/** A club's infobox in source order, as long as a real one: the changed key comes far down. */
const CLUB_INFOBOX: Record<string, string> = {
  clubname: 'Riverton Rovers',
  image: 'Riverton Rovers crest.svg',
  image_size: '150px',
  fullname: 'Riverton Rovers Football Club',
  nickname: 'The Millers',
  short_name: 'Rovers',
  founded: '1889',
  dissolved: '',
  ground: 'Mill Lane',
  ground_coordinates_and_capacity_note: 'Mill Lane, Riverton',
  owner: 'Riverton Supporters Trust',
  chairman: 'Alan Marsh',
  chrtitle: 'Chairman',
  mgrtitle: 'Manager',
  position_in_league_table_2023_24: '7th',
  website: 'rivertonrovers.example',
  season: '2023–24',
  current: '2023–24 Riverton Rovers F.C. season',
  pattern_la1: '_blackshoulders',
  leftarm1: '0000FF',
  body1: '0000FF',
};

/** One item of each shape a judge meets, hostile text in the first; `stratum` as the sampler sets it. */
export const AUDIT_CONTENTS: Array<{ stratum: string; content: ShippedItemContent }> = [
  {
    stratum: 'changed',
    content: {
      kind: 'label',
      title: `Riverton ${HOSTILE.script}`,
      pageId: 101,
      oldSnapshot: '2024-01',
      newSnapshot: '2024-02',
      sentence: `The mayor is ${HOSTILE.image} Jane Doe, see ${HOSTILE.link}.`,
      label: 'changed',
      matchedOld: ['The mayor is John Smith.'],
      oldParagraph: 'Riverton has a council of nine. The mayor is John Smith. Elections are held every four years.',
      newParagraph: `Riverton has a council of nine. The mayor is ${HOSTILE.image} Jane Doe, see ${HOSTILE.link}. Elections are held every four years.`,
      similarity: 0.81,
      evidence: `NLI: contradiction 0.93 ${HOSTILE.script}`,
    },
  },
  {
    stratum: 'unchanged',
    content: {
      kind: 'label',
      title: 'Ash river',
      pageId: 102,
      oldSnapshot: '2024-01',
      newSnapshot: '2024-02',
      sentence: 'The bridge was opened in 1932.',
      label: 'unchanged',
      matchedOld: ['The bridge opened in 1932.'],
      oldParagraph: 'The Ash crosses the town. The bridge opened in 1932. It carries the main road.',
      newParagraph: 'The Ash crosses the town. The bridge was opened in 1932. It carries the main road and a cycle lane.',
      similarity: 0.97,
      evidence: null,
    },
  },
  {
    stratum: 'CHANGED',
    content: {
      kind: 'qa',
      itemType: 'CHANGED',
      title: 'Riverton',
      snapshot: '2024-02',
      question: 'What was the population of Riverton at the 2020 census?',
      answer: '11,200',
      oldAnswer: '9,800',
      evidence: 'Its population was 11,200 at the 2020 census, up from 9,800 in 2010.',
      article: ARTICLE,
      turns: [],
      oldEvidence: 'Its population was 9,800 at the 2010 census.',
      oldSnapshot: '2024-01',
    },
  },
  {
    stratum: 'dialogue',
    content: {
      kind: 'qa',
      itemType: 'dialogue',
      title: 'Riverton',
      snapshot: '2024-02',
      question: 'When was Riverton founded?',
      answer: '1821',
      oldAnswer: null,
      evidence: 'It was founded in 1821 by mill owners. The old bridge, opened in 1932, was replaced in 2019.',
      article: ARTICLE,
      turns: [
        { question: 'When was Riverton founded?', answer: '1821' },
        { question: 'Who founded it?', answer: 'mill owners' },
        { question: 'When was the old bridge replaced?', answer: '2019' },
      ],
    },
  },
  {
    stratum: 'sports',
    content: {
      kind: 'weekly',
      title: 'Riverton Rovers F.C.',
      week: '2024-03-04',
      domain: 'sports',
      question: 'Who is the manager of Riverton Rovers F.C.?',
      answer: 'Kenji Ito',
      key: 'manager',
      infoboxBefore: { ...CLUB_INFOBOX, capacity: '4,500', manager: 'John Hale', league: 'Northern League' },
      infoboxAfter: { ...CLUB_INFOBOX, capacity: '4,800', manager: 'Kenji Ito', league: 'Northern League' },
      firstParagraph: 'Riverton Rovers Football Club is a football club based in Riverton. They play in the Northern League at Mill Lane.',
      timeline: [
        { from: '2019-06-01', value: 'Paul Grant' },
        { from: '2022-07-15', value: 'John Hale' },
        { from: '2024-03-06', value: 'Kenji Ito' },
      ],
      revisions: {
        changedAt: '2024-03-06T09:12:00Z',
        before: { revId: 1006, url: 'https://en.wikipedia.org/w/index.php?oldid=1006' },
        after: { revId: 1010, url: 'https://en.wikipedia.org/w/index.php?oldid=1010' },
        diff: 'https://en.wikipedia.org/w/index.php?diff=1010&oldid=1006',
      },
    },
  },
  {
    stratum: 'NEW',
    content: {
      kind: 'qa',
      itemType: 'NEW',
      title: 'Riverton',
      snapshot: '2024-02',
      question: 'Who is the mayor of Riverton?',
      answer: 'Jane Doe',
      oldAnswer: null,
      evidence: 'The mayor is Jane Doe, elected in 2022.',
      article: ARTICLE,
      turns: [],
    },
  },
  {
    stratum: 'new',
    content: {
      kind: 'label',
      title: 'Riverton station',
      pageId: 103,
      oldSnapshot: '2024-01',
      newSnapshot: '2024-02',
      sentence: 'In 2021 the station was electrified.',
      label: 'new',
      matchedOld: [],
      oldParagraph: 'The station opened in 1850 on the northern line.',
      newParagraph: 'The station opened in 1850 on the northern line. In 2021 the station was electrified.',
      similarity: 0.41,
      evidence: null,
      closestOld: {
        measure: 'cosine',
        embedder: 'use-lite',
        sentences: [
          { text: 'The station opened in 1850 on the northern line.', similarity: 0.41 },
          { text: 'Steam trains called at the station until 1968.', similarity: 0.37 },
          { text: 'The line was doubled in 1901.', similarity: 0.22 },
        ],
      },
      oldArticle: [
        'Riverton station is a railway station in Riverton.',
        'The station opened in 1850 on the northern line.',
        'The line was doubled in 1901.',
        'Steam trains called at the station until 1968.',
        'Diesel units have served it since 1968, hourly to the city.',
        'The booking hall was rebuilt in 1990.',
      ],
    },
  },
];

/** A judge's verdict on a system's reply, with hostile text in the question and the reply. */
export const PREDICTION_CONTENT: PredictionContent = {
  kind: 'prediction',
  question: `What is the league position of Riverton Rovers? ${HOSTILE.script}`,
  date: '2025-02-10',
  prediction: `They are 4th ${HOSTILE.image}`,
  timeline: [
    { from: '2025-01-10T11:20:00Z', to: '2025-01-26T22:10:00Z', value: '5th', seen: false },
    { from: '2025-01-26T22:10:00Z', to: '2025-02-05T10:00:00Z', value: '4th', seen: true },
    { from: '2025-02-05T10:00:00Z', to: null, value: '3rd', seen: true },
  ],
  judge: { name: 'openai/gpt-4o-mini', mode: 'relaxed', verdict: 'outdated', reason: 'the reply gives 4th, which held until 2025-02-05' },
};

/**
 * A judge's verdict on a GrowOVER item as `evaluate growover --judge` writes it: a reply of two lines
 * (GrowOVER's scorer reads the first), short values, an old answer whose start is not known.
 */
export const GROWOVER_PREDICTION_CONTENT: PredictionContent = {
  kind: 'prediction',
  question: 'In the article "Quillstone", what fills the blank: "The format is documented and versioned separately from the engine; version ___ of the format, adopted in February 2025, adds page checksums"?',
  date: '2025-04-01',
  prediction: '3\nIt may be 4 by now',
  timeline: [
    { from: '', to: '2025-03-01', value: '3', seen: false },
    { from: '2025-03-01', to: null, value: '4', seen: true },
  ],
  judge: { name: 'openai/gpt-4o-mini', mode: 'relaxed', verdict: 'outdated', reason: 'the reply gives 3 first' },
};

export interface SeededAudit {
  audit: AuditInfo;
  items: AuditItem[];
  /** Each annotator's token by name, and the admin's. */
  tokens: Record<string, string>;
  adminToken: string;
}

/**
 * Creates an audit holding `copies` rounds of `contents` (AUDIT_CONTENTS unless given; keys made unique per round), every
 * item assigned to every annotator in the same order, plus an admin.
 */
export function seedAudit(store: Store, options: { name?: string; annotators: string[]; copies?: number; contents?: typeof AUDIT_CONTENTS }): SeededAudit {
  const audits = store.audits;
  const audit = audits.createAudit({ name: options.name ?? 'pages', source: 'labels', params: {}, raters: options.annotators.length, seed: 1, createdAt: '2024-03-10T00:00:00.000Z' });
  const rounds = Array.from({ length: options.copies ?? 1 }, (_, round) => round);
  const items = audits.addItems(
    audit.id,
    rounds.flatMap((round) => (options.contents ?? AUDIT_CONTENTS).map((entry, index) => ({ key: `item-${round}-${index}`, stratum: entry.stratum, content: entry.content }))),
  );
  const tokens: Record<string, string> = {};
  for (const name of options.annotators) {
    const token = newToken();
    const annotator = audits.addAnnotator(audit.id, name, hashToken(token), 'annotator');
    audits.assign(items.map((item) => ({ itemId: item.id, annotatorId: annotator.id })));
    tokens[name] = token;
  }
  const adminToken = newToken();
  audits.addAnnotator(audit.id, 'maintainer', hashToken(adminToken), 'admin');
  return { audit, items, tokens, adminToken };
}

/** What a "wrong" verdict on the item carries: another label than the one proposed, or an answer. */
export function correctionOf(content: AuditItemContent): { label: string } | { answer: string } {
  if (content.kind !== 'label') return { answer: 'x' };
  return { label: content.label === 'new' ? 'unchanged' : 'new' };
}
