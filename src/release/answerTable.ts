/**
 * The answers table of weekly and DailyQA releases: one row per kept query and day, the form
 * DailyQA's per-day files take as one table (docs/ARCHITECTURE.md §8), with why there is no
 * answer, the interval the answer holds over, and the answer's aliases. Row-group statistics on
 * id and date, what readers select by; the other columns go without (a third of the writing time).
 */
import type { Answer } from '../timeline/answers.js';
import type { TableRecord, TableSpec } from './parquetTable.js';

export const ANSWERS_TABLE: TableSpec = {
  name: 'answers',
  columns: [
    { name: 'id', type: 'string', repeats: true },
    { name: 'date', type: 'date', repeats: true },
    { name: 'answer', type: 'string', nullable: true, repeats: true, statistics: false },
    { name: 'status', type: 'string', repeats: true, statistics: false },
    { name: 'valid_from', type: 'timestamp', nullable: true, repeats: true, statistics: false },
    { name: 'valid_to', type: 'timestamp', nullable: true, repeats: true, statistics: false },
    { name: 'aliases', type: 'strings', statistics: false },
  ],
};

/** A query's answer on a day as a row; `aliases`: other names of the answer the store holds (link targets, a named entity's aliases). */
export function answerRecord(id: string, date: string, answer: Answer): TableRecord {
  return { id, date, answer: answer.answer, status: answer.status, valid_from: answer.valid_from, valid_to: answer.valid_to, aliases: answer.aliases };
}

