/**
 * What changed between two releases of a series (docs/ARCHITECTURE.md §8), read from their JSON
 * lines: queries added, retired and replaced (an id asking another question) and the answers that
 * changed on which days (weekly, DailyQA ranges), GrowOVER items kept, new and retired with their
 * reason, sentence labels that changed. The same comparison makes every release's CHANGES.md and changes.jsonl and `release diff`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { turnItemId } from '../model/growover.js';
import { readJsonLines } from './formats/index.js';
import { byPath, type Manifest } from './manifest.js';

/** A release as the comparison reads it: its manifest and the records of its JSON-lines files. */
export interface ReleaseSource {
  manifest: Pick<Manifest, 'kind' | 'series' | 'version' | 'parameters'>;
  records(file: string): Array<Record<string, unknown>>;
}

/** One line of changes.jsonl after the summary. */
export type ChangeRecord = Record<string, unknown> & { change: string };

export interface ReleaseChanges {
  kind: Manifest['kind'];
  version: string;
  /** Null: the first release of its series. */
  previous: string | null;
  counts: Record<string, unknown>;
  records: ChangeRecord[];
  /** The markdown of the changes (CHANGES.md after its heading). */
  body: string;
}

/** How many changes of one kind CHANGES.md lists; changes.jsonl holds them all. */
const LISTED = 50;

/** A release read from its directory. */
export function directorySource(dir: string, manifest: ReleaseSource['manifest']): ReleaseSource {
  return {
    manifest,
    records: (file) => {
      const path = join(dir, file);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new UserError('E_RELEASE_INVALID', `release ${dir}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
      return readJsonLines(text, `release ${dir}: ${file}`);
    },
  };
}

/** A release not yet written, from its files. */
export function filesSource(files: ReadonlyMap<string, string | Uint8Array>, manifest: ReleaseSource['manifest']): ReleaseSource {
  return {
    manifest,
    records: (file) => {
      const content = files.get(file);
      if (content === undefined) throw new Error(`the release being written has no ${file}`);
      return readJsonLines(typeof content === 'string' ? content : Buffer.from(content).toString('utf8'), file);
    },
  };
}

/** The first release of a series: nothing to compare with. */
export function firstRelease(after: ReleaseSource): ReleaseChanges {
  return {
    kind: after.manifest.kind,
    version: after.manifest.version,
    previous: null,
    counts: {},
    records: [],
    body: `This is the first release of the series "${after.manifest.series}": there is no earlier release to compare it with.\n`,
  };
}

/**
 * The changes from `before` to `after`, two releases of the same kind; `between`: GrowOVER releases
 * of the months between them, which say why the items retired in those months retired.
 */
export function diffReleases(before: ReleaseSource, after: ReleaseSource, between: readonly ReleaseSource[] = []): ReleaseChanges {
  if (before.manifest.kind !== after.manifest.kind) {
    throw new UserError('E_RELEASE_MISMATCH', `cannot compare a ${before.manifest.kind} release (${before.manifest.version}) with a ${after.manifest.kind} release (${after.manifest.version})`);
  }
  const compared = { kind: after.manifest.kind, version: after.manifest.version, previous: before.manifest.version };
  switch (after.manifest.kind) {
    case 'weekly':
    case 'dailyqa':
      return { ...compared, ...answerChanges(before, after) };
    case 'growover':
      return { ...compared, ...growoverChanges(before, after, between) };
    case 'labels':
      return { ...compared, ...labelChanges(before, after) };
  }
}

/** CHANGES.md: a heading naming both versions, the counts and the listed changes. */
export function changesMarkdown(changes: ReleaseChanges): string {
  const against = changes.previous === null ? '' : ` since ${changes.previous}`;
  return `# What changed in ${changes.kind} release ${changes.version}${against}\n\n${changes.body}`;
}

/** changes.jsonl: a summary line with the counts, then one line per change. */
export function changesJsonLines(changes: ReleaseChanges): string {
  const summary = { change: 'summary', kind: changes.kind, version: changes.version, previous: changes.previous, counts: changes.counts };
  return [summary, ...changes.records].map((record) => `${JSON.stringify(record)}\n`).join('');
}

interface DayAnswer {
  answer: string | null;
  status: string;
  /** The answer's other names; a change records them only when they differ (an evaluation accepts them as the answer). */
  aliases?: string[];
  /** The interval the answer held over, as the release gives it (a sync or a later week may date its end). */
  valid_from?: string | null;
  valid_to?: string | null;
}

function sameAliases(a: DayAnswer, b: DayAnswer): boolean {
  return JSON.stringify(a.aliases ?? []) === JSON.stringify(b.aliases ?? []);
}

/** The two answers of a changed day as changes.jsonl gives them: the aliases only when they differ. */
function dayChange(date: string, was: DayAnswer, now: DayAnswer): { date: string; before: DayAnswer; after: DayAnswer } {
  const plain = ({ answer, status }: DayAnswer): DayAnswer => ({ answer, status });
  if (sameAliases(was, now)) return { date, before: plain(was), after: plain(now) };
  return { date, before: { ...plain(was), aliases: was.aliases ?? [] }, after: { ...plain(now), aliases: now.aliases ?? [] } };
}

function answerChanges(before: ReleaseSource, after: ReleaseSource): Pick<ReleaseChanges, 'counts' | 'records' | 'body'> {
  const old = answersByQuery(before.records('answers.jsonl'));
  const now = answersByQuery(after.records('answers.jsonl'));
  const added = [...now.keys()].filter((id) => !old.has(id)).sort(byPath);
  const gone = [...old.keys()].filter((id) => !now.has(id)).sort(byPath);
  // A weekly release holds one week's queries: those of another week are in that week's release, not retired.
  const otherWeek = after.manifest.kind === 'weekly' && before.manifest.parameters['start'] !== after.manifest.parameters['start'] ? String(before.manifest.parameters['start']) : null;
  const retired = otherWeek === null ? gone : [];
  const elsewhere = otherWeek === null ? [] : gone;
  // An id asking another question (the week made again with another seed or model) is a new query under an old id: its answers are not the world's changes.
  const replaced = replacedQueries(before, after);
  const changed: Array<{ id: string; days: Array<{ date: string; before: DayAnswer; after: DayAnswer }> }> = [];
  // The same answer with another interval (a later week or a sync dated its start or end): not a change of the answer, but of the release.
  const redated: Array<{ id: string; days: string[] }> = [];
  for (const [id, days] of [...now].sort(([a], [b]) => byPath(a, b))) {
    const earlier = old.get(id);
    if (!earlier || replaced.has(id)) continue;
    const differing: Array<{ date: string; before: DayAnswer; after: DayAnswer }> = [];
    const moved: string[] = [];
    for (const [date, answer] of days) {
      const was = earlier.get(date);
      if (was === undefined) continue;
      if (was.answer !== answer.answer || was.status !== answer.status || !sameAliases(was, answer)) differing.push(dayChange(date, was, answer));
      else if (was.valid_from !== answer.valid_from || was.valid_to !== answer.valid_to) moved.push(date);
    }
    if (differing.length > 0) changed.push({ id, days: differing.sort((a, b) => byPath(a.date, b.date)) });
    if (moved.length > 0) redated.push({ id, days: moved.sort(byPath) });
  }
  const changedDays = changed.reduce((sum, query) => sum + query.days.length, 0);
  const frequencies = updateFrequencyChanges(before, after, replaced);
  const counts = {
    queries: { before: old.size, after: now.size, added: added.length, retired: retired.length, replaced: replaced.size, ...(otherWeek === null ? {} : { in_their_week: elsewhere.length }) },
    days: { before: daySpan(old), after: daySpan(now) },
    answers_changed: { queries: changed.length, days: changedDays },
    validity_changed: { queries: redated.length, days: redated.reduce((sum, query) => sum + query.days.length, 0) },
    update_frequency_changed: frequencies.length,
  };
  const records: ChangeRecord[] = [
    ...added.map((id) => ({ change: 'query_added', id })),
    ...retired.map((id) => ({ change: 'query_retired', id })),
    ...elsewhere.map((id) => ({ change: 'query_of_another_week', id, week: otherWeek })),
    ...[...replaced].map(([id, query]) => ({ change: 'query_replaced', id, ...query })),
    ...changed.map((query) => ({ change: 'answer_changed', ...query })),
    ...redated.map((query) => ({ change: 'validity_changed', ...query })),
    ...frequencies.map((query) => ({ change: 'update_frequency_changed', ...query })),
  ];
  const span = (days: ReturnType<typeof daySpan>) => (days.count === 0 ? 'none' : `${days.first} .. ${days.last} (${days.count})`);
  const show = (answer: DayAnswer) =>
    `${answer.answer === null ? `(${answer.status})` : `${cell(answer.answer)}${answer.status === 'ok' ? '' : ` (${answer.status})`}`}${answer.aliases === undefined ? '' : ` aliases: ${answer.aliases.length === 0 ? 'none' : answer.aliases.map(cell).join(', ')}`}`;
  const replacedRows = [...replaced].map(([id, query]) => `| \`${id}\` | ${cell(query.before)} | ${cell(query.after)} |`);
  const changedRows = changed.flatMap((query) => query.days.map((day) => `| \`${query.id}\` | ${day.date} | ${show(day.before)} | ${show(day.after)} |`));
  const body = `| | before | after |
|---|---|---|
| queries | ${old.size} | ${now.size} |
| days | ${span(counts.days.before)} | ${span(counts.days.after)} |

- queries added: ${added.length}
- queries retired: ${retired.length}${otherWeek === null ? '' : `\n- queries of the week of ${otherWeek}, kept in that week's release: ${elsewhere.length}`}
- queries replaced (the same id asking another question): ${replaced.size}
- answers changed: ${changed.length} queries, on ${changedDays} query-days
- the same answers with another validity interval (valid_from, valid_to): ${counts.validity_changed.queries} queries, on ${counts.validity_changed.days} query-days
- update frequencies changed: ${frequencies.length}

${idList('Queries added', added)}${idList('Queries retired', retired)}${table('Queries replaced', '| id | before | after |\n|---|---|---|', replacedRows)}${table('Answers changed', '| id | date | before | after |\n|---|---|---|---|', changedRows)}${table('Update frequencies changed', '| id | before | after |\n|---|---|---|', frequencies.map((query) => `| \`${query.id}\` | ${cell(String(query.before))} | ${cell(String(query.after))} |`))}`;
  return { counts, records, body };
}

/** The ids both releases hold, asking the same question, whose update frequency differs (finalize classed them since), in id order. */
function updateFrequencyChanges(before: ReleaseSource, after: ReleaseSource, replaced: ReadonlyMap<string, unknown>): Array<{ id: string; before: unknown; after: unknown }> {
  const frequencies = (release: ReleaseSource) => new Map(release.records('queries.jsonl').map((record) => [String(record.id), record.update_frequency ?? null]));
  const [was, is] = [frequencies(before), frequencies(after)];
  return [...is]
    .filter(([id, frequency]) => was.has(id) && !replaced.has(id) && was.get(id) !== frequency)
    .sort(([a], [b]) => byPath(a, b))
    .map(([id, frequency]) => ({ id, before: was.get(id), after: frequency }));
}

/** The ids both releases hold whose question differs, in id order, with the question before and after. */
function replacedQueries(before: ReleaseSource, after: ReleaseSource): Map<string, { before: string; after: string }> {
  const questions = (release: ReleaseSource) => new Map(release.records('queries.jsonl').map((record) => [String(record.id), String(record.query)]));
  const [was, is] = [questions(before), questions(after)];
  const replaced = new Map<string, { before: string; after: string }>();
  for (const [id, question] of [...is].sort(([a], [b]) => byPath(a, b))) {
    const earlier = was.get(id);
    if (earlier !== undefined && earlier !== question) replaced.set(id, { before: earlier, after: question });
  }
  return replaced;
}

function answersByQuery(records: Array<Record<string, unknown>>): Map<string, Map<string, DayAnswer>> {
  const byQuery = new Map<string, Map<string, DayAnswer>>();
  for (const record of records) {
    const id = String(record.id);
    let days = byQuery.get(id);
    if (!days) byQuery.set(id, (days = new Map()));
    days.set(String(record.date), {
      answer: (record.answer ?? null) as string | null,
      status: String(record.status),
      aliases: Array.isArray(record.aliases) ? record.aliases.map(String) : [],
      valid_from: (record.valid_from ?? null) as string | null,
      valid_to: (record.valid_to ?? null) as string | null,
    });
  }
  return byQuery;
}

function daySpan(byQuery: Map<string, Map<string, DayAnswer>>): { first: string | null; last: string | null; count: number } {
  const dates = new Set<string>();
  for (const days of byQuery.values()) for (const date of days.keys()) dates.add(date);
  const sorted = [...dates].sort(byPath);
  return { first: sorted[0] ?? null, last: sorted.at(-1) ?? null, count: sorted.length };
}

interface GrowoverItems {
  qa: Set<string>;
  turns: Set<string>;
}

function growoverChanges(before: ReleaseSource, after: ReleaseSource, between: readonly ReleaseSource[]): Pick<ReleaseChanges, 'counts' | 'records' | 'body'> {
  const old = growoverItems(before);
  const now = growoverItems(after);
  // A release holds the reasons of its own month's retirements: those of an item retired in a month
  // between two releases that are not consecutive are in that month's release, when it is at hand.
  const reasons = retirementReasons(after);
  const earlier = new Map(between.flatMap((release) => [...retirementReasons(release)].map(([id, reason]) => [id, { reason, retired_in: release.manifest.version }] as const)));
  const retirementOf = (id: string): { reason: string | null; retired_in?: string } => {
    const reason = reasons.get(id);
    return reason !== undefined ? { reason } : (earlier.get(id) ?? { reason: null });
  };
  const records: ChangeRecord[] = [];
  const counts: Record<string, { before: number; after: number; kept: number; new: number; retired: number }> = {};
  const sections: string[] = [];
  for (const [item, label] of [
    ['qa', 'QA items'],
    ['turns', 'dialogue turns'],
  ] as const) {
    const kept = [...now[item]].filter((id) => old[item].has(id)).sort(byPath);
    const made = [...now[item]].filter((id) => !old[item].has(id)).sort(byPath);
    const retired = [...old[item]].filter((id) => !now[item].has(id)).sort(byPath);
    const kind = item === 'qa' ? 'qa' : 'turn';
    counts[item] = { before: old[item].size, after: now[item].size, kept: kept.length, new: made.length, retired: retired.length };
    records.push(
      ...made.map((id) => ({ change: 'item_new', item: kind, id })),
      ...retired.map((id) => ({ change: 'item_retired', item: kind, id, ...retirementOf(id) })),
      ...kept.map((id) => ({ change: 'item_kept', item: kind, id })),
    );
    const retiredRows = retired.map((id) => {
      const { reason, retired_in } = retirementOf(id);
      return `| \`${id}\` | ${cell(reason === null ? RETIRED_BETWEEN : retired_in ? `${reason} (retired in release ${retired_in})` : reason)} |`;
    });
    sections.push(idList(`New ${label}`, made), table(`Retired ${label}`, '| id | reason |\n|---|---|', retiredRows));
  }
  const row = (label: string, c: (typeof counts)[string] | undefined) => `| ${label} | ${c?.before} | ${c?.after} | ${c?.kept} | ${c?.new} | ${c?.retired} |`;
  const body = `| | before | after | kept | new | retired |
|---|---|---|---|---|---|
${row('QA items', counts.qa)}
${row('dialogue turns', counts.turns)}

${sections.join('')}`;
  return { counts, records, body };
}

/** What CHANGES.md says of an item retired in a month between the two releases when no release of that month was found beside the newer one. */
const RETIRED_BETWEEN = 'retired in a month between the two releases; no release of that month beside this one says why';

/** The ids of a GrowOVER release's QA items (qa.jsonl: article → items) and turns (turn.jsonl: turn id → turn). */
function growoverItems(release: ReleaseSource): GrowoverItems {
  const qa = new Set<string>();
  for (const line of release.records('qa.jsonl')) for (const items of Object.values(line) as Array<Array<{ id: string }>>) for (const item of items) qa.add(item.id);
  const turns = new Set<string>();
  for (const line of release.records('turn.jsonl')) for (const id of Object.keys(line)) turns.add(id);
  return { qa, turns };
}

/** Why each item or turn retired in the release's snapshot retired, from its native records. */
function retirementReasons(release: ReleaseSource): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const record of release.records('native.jsonl')) {
    if (record.kind === 'qa' && record.status === 'retired') reasons.set(String(record.id), String(record.reason));
    if (record.kind === 'dialogue') {
      for (const turn of record.turns as Array<{ turn: number; status: string; reason?: string }>) {
        if (turn.status === 'retired') reasons.set(turnItemId(String(record.id), turn.turn), String(turn.reason));
      }
    }
  }
  return reasons;
}

function labelChanges(before: ReleaseSource, after: ReleaseSource): Pick<ReleaseChanges, 'counts' | 'records' | 'body'> {
  const old = before.records('labels.jsonl');
  const now = after.records('labels.jsonl');
  const tally = (records: typeof old) => {
    const byLabel: Record<string, number> = {};
    for (const record of records) byLabel[String(record.label)] = (byLabel[String(record.label)] ?? 0) + 1;
    return byLabel;
  };
  const labels = [...new Set([...Object.keys(tally(old)), ...Object.keys(tally(now))])].sort(byPath);
  const [was, is] = [tally(old), tally(now)];
  const tableRows = labels.map((label) => `| ${label} | ${was[label] ?? 0} | ${is[label] ?? 0} |`);
  const counts: Record<string, unknown> = { sentences: { before: old.length, after: now.length }, labels: Object.fromEntries(labels.map((l) => [l, { before: was[l] ?? 0, after: is[l] ?? 0 }])) };
  const samePair = before.manifest.parameters.old === after.manifest.parameters.old && before.manifest.parameters.new === after.manifest.parameters.new;
  let details: string;
  const records: ChangeRecord[] = [];
  if (samePair) {
    // The same two snapshots labeled again (other models, the LLM judge): compare sentence by sentence.
    const key = (record: Record<string, unknown>) => (record.new_index === undefined || record.new_index === null ? `${String(record.title)}\u0000old\u0000${String(record.old_index)}` : `${String(record.title)}\u0000new\u0000${String(record.new_index)}`);
    const earlier = new Map(old.map((record) => [key(record), record]));
    for (const record of now) {
      const previous = earlier.get(key(record));
      if (previous && previous.label !== record.label) {
        const side = record.new_index === undefined || record.new_index === null ? { old_index: record.old_index } : { new_index: record.new_index };
        records.push({ change: 'label_changed', title: record.title, ...side, before: previous.label, after: record.label });
      }
    }
    counts.relabeled = records.length;
    const rows = records.map((r) => `| ${cell(String(r.title))} | ${r.new_index ?? `old ${String(r.old_index)}`} | ${String(r.before)} | ${String(r.after)} |`);
    details = `- sentences whose label changed: ${records.length}\n\n${table('Labels changed', '| title | sentence | before | after |\n|---|---|---|---|', rows)}`;
  } else {
    details = `The two releases label different snapshot pairs (${String(before.manifest.parameters.old)} → ${String(before.manifest.parameters.new)}, then ${String(after.manifest.parameters.old)} → ${String(after.manifest.parameters.new)}): their sentences are not the same, so only the counts compare.\n`;
  }
  const body = `| label | before | after |\n|---|---|---|\n${tableRows.join('\n')}\n| **sentences** | **${old.length}** | **${now.length}** |\n\n${details}`;
  return { counts, records, body };
}

function idList(title: string, ids: readonly string[]): string {
  if (ids.length === 0) return '';
  const more = ids.length > LISTED ? `\n\n… and ${ids.length - LISTED} more (all in changes.jsonl)` : '';
  return `## ${title} (${ids.length})\n\n${ids.slice(0, LISTED).map((id) => `\`${id}\``).join(', ')}${more}\n\n`;
}

function table(title: string, header: string, rows: readonly string[]): string {
  if (rows.length === 0) return '';
  const more = rows.length > LISTED ? `\n\n… and ${rows.length - LISTED} more (all in changes.jsonl)` : '';
  return `## ${title} (${rows.length})\n\n${header}\n${rows.slice(0, LISTED).join('\n')}${more}\n\n`;
}

/** Text that cannot break a markdown table row. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}
