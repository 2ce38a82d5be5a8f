/**
 * The weekly baselines: every kept query an evaluation of the date expects on a time axis (those with
 * a known answer that day, of all weeks or of one), answered as of that date. closed-book: "Today is
 * D." and the question; golden-doc: the question with the article as it stood at D 00:00 UTC (the
 * infobox holding the asked key, and the first paragraph) from the store, or on world time the page
 * world time reads (docs/ARCHITECTURE.md §16). Offline, golden-doc reads the key's value (an upper
 * bound) and closed-book answers nothing.
 *
 * Example: await predictWeekly(store, new OfflineBaselineTasks(), 'golden-doc', '2025-01-27')
 */
import { namedInfobox, pageName } from '../content/entityRefs.js';
import type { BaselineTasks, ReferenceDocument } from '../llm/baselineTasks.js';
import type { Infobox } from '../model.js';
import type { EntityStore } from '../store/entityStore.js';
import type { RevisionReads } from '../store/revisionReads.js';
import type { Store } from '../store/store.js';
import type { TimeAxis } from '../model/timelines.js';
import { answerInstant, answersOnDate, answerSubject } from '../timeline/answers.js';
import { predictAll, type BaselinePredictions } from './predictBaseline.js';
import { StoreGold } from './storeCases.js';

/** The weekly baselines `predict weekly` runs: the question alone, or with the golden document (the page at the date). */
export const WEEKLY_SYSTEMS = ['closed-book', 'golden-doc'] as const;
export type WeeklySystem = (typeof WEEKLY_SYSTEMS)[number];

interface WeeklyItem {
  id: string;
  question: string;
}

/**
 * Answers every item an evaluation on `date` expects as one of the baselines; golden-doc leaves an
 * item whose page the store cannot show at the date unanswered.
 *
 * @param store - the store holding the weekly dataset
 * @param tasks - the answering model: an LLM's tasks, or `OfflineBaselineTasks`
 * @param system - `closed-book` or `golden-doc`
 * @param date - the answer date, YYYY-MM-DD (answers in effect at its 00:00 UTC)
 * @param scope - only the queries of the week starting `week` (YYYY-MM-DD); the time axis whose gold is expected (edit time when absent)
 * @returns the predictions (an item whose call failed has an empty one), and how many failed or were not asked
 * @example predictionLines((await predictWeekly(store, new OfflineBaselineTasks(), 'golden-doc', '2025-01-20')).predictions)
 */
export async function predictWeekly(
  store: Store,
  tasks: BaselineTasks,
  system: WeeklySystem,
  date: string,
  scope: { week?: string; axis?: TimeAxis } = {},
): Promise<BaselinePredictions> {
  const instant = answerInstant(date);
  const axis = scope.axis ?? 'edit';
  const questions = new Map(answersOnDate(store, date, { axis }).map((row) => [row.id, row.query]));
  const items: WeeklyItem[] = new StoreGold(store)
    .expected({ dates: [date], week: scope.week ?? null, axis })
    .map((gold) => ({ id: gold.id, question: questions.get(gold.id) ?? '' }));
  if (system === 'closed-book') return predictAll(items, (item) => tasks.answerClosedBook({ text: item.question, date }));
  const { answers: timelines, pages: revisions, entities } = store;
  return predictAll(items, (item) => {
    const query = timelines.query(item.id, instant);
    if (!query || query.origin !== 'generated' || query.wiki === null || query.pageId === null || query.key === null) return null;
    const subject = { wiki: query.wiki, pageId: query.pageId, key: query.key, template: query.template };
    const document = axis === 'edit' ? goldenDocument(revisions, entities, subject, instant) : worldDocument(store, subject, instant);
    return document === null ? null : tasks.answerFromDocument({ text: item.question, date, key: query.key }, document);
  });
}

/**
 * The page at the instant: the infobox that holds the key (the query's template first), and the first
 * paragraph. An entity reads as its data unit did (docs/ARCHITECTURE.md §16): titled by its label, values
 * and property keys named, so the document names what the question and the gold name.
 */
export function goldenDocument(
  revisions: RevisionReads,
  entities: EntityStore,
  subject: { wiki: string; pageId: number; key: string; template: string | null },
  instant: string,
): ReferenceDocument | null {
  const article = revisions.articleAt(subject.wiki, subject.pageId, instant);
  if (!article) return null;
  const infoboxes = revisions.infoboxes(subject.wiki, subject.pageId, article.revId);
  const has = (box: Infobox) => box.fields.some(([key]) => key === subject.key);
  const infobox = infoboxes.find((box) => box.template === subject.template && has(box)) ?? infoboxes.find(has) ?? infoboxes[0];
  const { values, keyLabels } = namedInfobox(infobox?.fields ?? [], entities);
  const title = pageName(entities.entityPage(subject.wiki, subject.pageId), article.title);
  return { title, text: article.lead ?? '', infobox: values, keyLabels };
}

/** Later than any revision: the page as of its latest known revision. */
const LATEST = '9999-12-31T23:59:59Z';

/**
 * The page on world time: its latest known revision, the one world time reads, each key that has
 * time-qualified statements showing what held at the instant (none when nothing did); the others as
 * that revision has them.
 */
function worldDocument(store: Store, subject: { wiki: string; pageId: number; key: string; template: string | null }, instant: string): ReferenceDocument | null {
  const latest = goldenDocument(store.pages, store.entities, subject, LATEST);
  if (latest?.infobox === undefined) return latest;
  const infobox = Object.entries(latest.infobox).flatMap(([key, value]): Array<[string, string]> => {
    const world = answerSubject(store, { wiki: subject.wiki, pageId: subject.pageId, key }, instant, 'world');
    if (world.status === 'unknown') return [[key, value]];
    return world.answer === null ? [] : [[key, world.answer]];
  });
  return { ...latest, infobox: Object.fromEntries(infobox) };
}
